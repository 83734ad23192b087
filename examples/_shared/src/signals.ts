/**
 * Graceful shutdown for an example process, the way a terminal and a supervisor expect it.
 *
 * The first SIGINT or SIGTERM starts `shutdown`. Every further signal while it runs is logged and
 * ignored: Ctrl-C under `pnpm start` delivers SIGINT twice (the terminal signals the whole process
 * group, and pnpm forwards its own copy, then a SIGTERM on the next Ctrl-C), and a listener that
 * only took the first one (`process.once`) let the next copy kill the bot in the middle of its
 * running handlers. The shutdown is bounded by the runtime's own budgets, so nothing needs a
 * forced exit while it runs. A signal after the shutdown finished exits at once (with the exit
 * code so far): something kept the process alive, and whoever signals wants it gone.
 */

/** How `shutdownOnSignals` reports and which signals it takes. */
export interface ShutdownOnSignalsOptions {
  /** Where the lines go. Default `console.log`. */
  readonly log?: (line: string) => void;
  /** The signals that start the shutdown. Default `['SIGINT', 'SIGTERM']`. */
  readonly signals?: readonly NodeJS.Signals[];
}

const DEFAULTS = Object.freeze({
  log: (line: string) => console.log(line),
  signals: Object.freeze(['SIGINT', 'SIGTERM'] as const),
});

/**
 * Runs `shutdown` once, on the first of `signals`, logging `<SIGNAL>: shutting down`. A rejection
 * of `shutdown` is logged and sets `process.exitCode = 1`; the process then exits by itself once
 * nothing keeps it alive. Returns a function that removes the listeners.
 */
export function shutdownOnSignals(
  shutdown: (signal: NodeJS.Signals) => Promise<void>,
  options: ShutdownOnSignalsOptions = {},
): () => void {
  const log = options.log ?? DEFAULTS.log;
  const signals = options.signals ?? DEFAULTS.signals;
  if (typeof shutdown !== 'function') throw new TypeError('shutdown must be a function');
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  const onSignal = (signal: NodeJS.Signals) => {
    if (state === 'stopping') {
      log(`${signal}: already shutting down, ignored`);
      return;
    }
    if (state === 'stopped') {
      log(`${signal}: stopped, exiting now`);
      process.exit();
    }
    state = 'stopping';
    log(`${signal}: shutting down`);
    shutdown(signal).then(
      () => {
        state = 'stopped';
      },
      (error: unknown) => {
        state = 'stopped';
        console.error('shutdown failed', error);
        process.exitCode = 1;
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
