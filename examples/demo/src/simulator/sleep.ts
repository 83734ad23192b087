/**
 * Waits `ms` (nothing for `ms <= 0`), or less when `signal` aborts: it then resolves at once, since
 * a simulator that is told to stop just stops sending. Removes its listener and timer either way.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
