/**
 * Benchmark processes: servers and load generators each run in their own Node process, so the
 * figures of one never include the other's work. Children speak JSON messages over IPC.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The code a benchmark measures: `pnpm bench` runs rt from its `tsc` build (`dist/`, what users
 * install; it builds first), so the main process has no `@rt/source` condition; the CI smoke and
 * `pnpm --filter @rt/bench bench:source` run the TypeScript sources through tsx, whose transform
 * also wraps every closure created at run time in a `__name` call the build does not have.
 * Children measure what the main process measures.
 */
export const MEASURES_SOURCES = process.execArgv.includes('--conditions=@rt/source');

/** Node flags of every child: the main process's choice of code, tsx for the harness, `gc()`. */
const EXEC_ARGV = [
  '--expose-gc',
  ...(MEASURES_SOURCES ? ['--conditions=@rt/source'] : []),
  '--import',
  'tsx',
];

/**
 * `RT_BENCH_CPU_PROF=<dir>`: server processes (`*server-main.ts`) and Socket Mode clients
 * (`*client-main.ts`) also write a V8 CPU profile into `<dir>` when they exit (`--cpu-prof`), for
 * the profile evidence behind a figure. `RT_BENCH_HEAP_PROF=<dir>` likewise writes a sampling
 * heap profile (`--heap-prof`, one sample per 16 KiB allocated): where their allocations come from.
 */
function execArgvFor(script: string): string[] {
  const profiled = script.endsWith('client-main.ts') || script.endsWith('server-main.ts');
  if (!profiled) return EXEC_ARGV;
  const argv = [...EXEC_ARGV];
  const cpu = process.env.RT_BENCH_CPU_PROF;
  if (cpu !== undefined && cpu !== '') argv.push('--cpu-prof', `--cpu-prof-dir=${cpu}`);
  const heap = process.env.RT_BENCH_HEAP_PROF;
  if (heap !== undefined && heap !== '') {
    argv.push('--heap-prof', `--heap-prof-dir=${heap}`, '--heap-prof-interval=16384');
  }
  return argv;
}

/** A running child process and its IPC messages. */
export interface Child {
  readonly pid: number;
  readonly process: ChildProcess;
  /** Sends `message` and resolves the first reply whose `type` is `replyType`. */
  request<T>(message: object, replyType: string): Promise<T>;
  /** Resolves the next message whose `type` is `type`. */
  next<T>(type: string): Promise<T>;
  /** Asks it to exit, then kills it after `graceMs`. Resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Forks `script` (a path relative to this package's `src/`) with `args`. Rejects if the child
 * exits before sending a message of type `ready` (which `start` resolves with).
 */
export async function startChild<T = unknown>(
  script: string,
  args: readonly string[],
): Promise<{ child: Child; ready: T }> {
  const path = fileURLToPath(new URL(`../${script}`, import.meta.url));
  const proc = fork(path, [...args], {
    execArgv: execArgvFor(script),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiters = new Set<{
    type: string;
    resolve: (m: unknown) => void;
    reject: (e: Error) => void;
  }>();
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => {
    proc.once('exit', (code, signal) => {
      exited = true;
      for (const w of waiters)
        w.reject(new Error(`${script} exited (${code ?? signal}) before "${w.type}"`));
      waiters.clear();
      resolve();
    });
  });
  proc.on('message', (message: { type?: string }) => {
    for (const w of [...waiters]) {
      if (w.type === message.type) {
        waiters.delete(w);
        w.resolve(message);
      }
    }
  });
  const next = <M>(type: string) =>
    new Promise<M>((resolve, reject) => {
      if (exited) {
        reject(new Error(`${script} has exited`));
        return;
      }
      waiters.add({ type, resolve: resolve as (m: unknown) => void, reject });
    });
  const child: Child = {
    pid: proc.pid ?? -1,
    process: proc,
    next,
    request: <M>(message: object, replyType: string) => {
      const reply = next<M>(replyType);
      proc.send(message);
      return reply;
    },
    stop: async (graceMs = 5000) => {
      if (exited) return;
      if (proc.connected) proc.send({ type: 'stop' });
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
  try {
    const ready = await next<T>('ready');
    return { child, ready };
  } catch (error) {
    proc.kill('SIGKILL');
    throw error;
  }
}

/** Runs inside a child: answers messages by `type` with the handler's result (plus `type`). */
export function serveParent(handlers: Record<string, (message: never) => unknown>): void {
  process.on('message', async (message: { type: string }) => {
    const handler = handlers[message.type];
    if (handler === undefined) return;
    const reply = await handler(message as never);
    if (reply !== undefined && process.connected) process.send?.(reply);
  });
  process.on('disconnect', () => process.exit(0));
}

/**
 * Forks `script` (relative to `src/`) with `args` and resolves its `{ type: 'result' }` message
 * once it has exited; rejects if it exits without one.
 */
export function runChild<T>(script: string, args: readonly string[]): Promise<T> {
  const path = fileURLToPath(new URL(`../${script}`, import.meta.url));
  const proc = fork(path, [...args], {
    execArgv: execArgvFor(script),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<T>((resolve, reject) => {
    let result: T | undefined;
    proc.on('message', (message: { type?: string }) => {
      if (message.type === 'result') result = message as T;
    });
    proc.once('error', reject);
    proc.once('exit', (code, signal) => {
      if (result !== undefined) resolve(result);
      else reject(new Error(`${script} exited (${code ?? signal}) without a result`));
    });
  });
}
