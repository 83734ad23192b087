/**
 * Test helper: starts an example the way its README says (`pnpm start`, or another script), as a
 * real process tree (pnpm, then node) in its own process group, and drives it with signals the
 * way a terminal (Ctrl-C: SIGINT to the whole group) and a supervisor (SIGTERM to the process it
 * started) do.
 */
import { type ChildProcess, spawn } from 'node:child_process';

/** What `startExample` needs. */
export interface StartExampleOptions {
  /** The example's directory (where its package.json is). */
  readonly dir: string;
  /** The environment of the run; `PATH` and `HOME` are added. Nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** The package script to run. Default `start`. */
  readonly script?: string;
}

/** A running example. */
export interface ExampleProcess {
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /**
   * Resolves with the first match of `pattern` in the output (a string matches as a substring);
   * rejects when the process exits first or after `timeoutMs` (default 30 s).
   */
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Ctrl-C in a terminal: `signal` to every process of the group (pnpm and the bot). */
  signalGroup(signal: NodeJS.Signals): void;
  /** A supervisor: `signal` to the process it started (pnpm) only. */
  signalCommand(signal: NodeJS.Signals): void;
  /** Resolves with the command's exit code (`null` when a signal killed it). */
  exited(): Promise<number | null>;
  /** True while any process of the group is alive (a bot orphaned by pnpm counts). */
  groupAlive(): boolean;
  /** SIGKILLs whatever is left of the group. Idempotent; for `afterEach`. */
  kill(): void;
}

/** Starts `pnpm --silent <script>` in `options.dir`, in its own process group. */
export function startExample(options: StartExampleOptions): ExampleProcess {
  const child: ChildProcess = spawn('pnpm', ['--silent', options.script ?? 'start'], {
    cwd: options.dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? options.dir,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: the group id is its pid, so the test can signal the group like a
    // terminal does, and clean up a bot pnpm would have orphaned.
    detached: true,
  });
  const group = child.pid;
  if (group === undefined) throw new Error('pnpm did not start');
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exit = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
      for (const listener of listeners) listener();
    });
  });
  return {
    output: () => output,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise<RegExpExecArray>((resolve, reject) => {
        const regex =
          typeof pattern === 'string'
            ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            : pattern;
        const done = (error: Error | undefined, match?: RegExpExecArray) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve(match as RegExpExecArray);
        };
        const check = () => {
          regex.lastIndex = 0;
          const match = regex.exec(output);
          if (match) return done(undefined, match);
          if (child.exitCode !== null || child.signalCode !== null) {
            done(new Error(`exited before printing ${String(pattern)}:\n${output}`));
          }
        };
        const timer = setTimeout(
          () => done(new Error(`no ${String(pattern)} within ${timeoutMs} ms:\n${output}`)),
          timeoutMs,
        );
        listeners.add(check);
        check();
      });
    },
    signalGroup: (signal) => process.kill(-group, signal),
    signalCommand: (signal) => void child.kill(signal),
    exited: () => exit,
    groupAlive() {
      try {
        process.kill(-group, 0);
        return true;
      } catch {
        return false;
      }
    },
    kill() {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // the group is gone: nothing was left behind
      }
    },
  };
}

/** One way the tests stop an example: what a terminal or a supervisor sends, in order. */
export interface StopScenario {
  readonly name: string;
  /** Sends the signals; waits on the example's output between them (no sleeps). */
  stop(example: ExampleProcess): Promise<void>;
}

/**
 * The ways an example must survive being stopped with a handler running: Ctrl-C twice, SIGTERM
 * once, and Ctrl-C followed by SIGTERM. Each waits for the bot to say it is shutting down before
 * the next signal, so the repeat lands while the shutdown runs.
 */
export const STOP_SCENARIOS: readonly StopScenario[] = Object.freeze([
  {
    name: 'Ctrl-C twice (SIGINT to the group, twice)',
    async stop(example) {
      example.signalGroup('SIGINT');
      await example.waitFor('shutting down');
      example.signalGroup('SIGINT');
      await example.waitFor('already shutting down, ignored');
    },
  },
  {
    name: 'a supervisor’s SIGTERM to the start command',
    async stop(example) {
      example.signalCommand('SIGTERM');
      await example.waitFor('SIGTERM: shutting down');
    },
  },
  {
    name: 'Ctrl-C, then SIGTERM to the start command',
    async stop(example) {
      example.signalGroup('SIGINT');
      await example.waitFor('shutting down');
      example.signalCommand('SIGTERM');
      await example.waitFor('SIGTERM: already shutting down, ignored');
    },
  },
]);
