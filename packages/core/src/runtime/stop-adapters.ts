import type { Adapter } from '../adapter/adapter.js';
import type { Observation } from '../observe/observation.js';

/**
 * Stops every adapter at once (SPEC 7, step 2). A `stop()` that throws or rejects is observed as an
 * `adapter_notice` named `stop_failed`; one still pending after `budgetMs` is observed as
 * `stop_timed_out` and no longer waited for, so a hung connection cannot hold shutdown forever
 * (its promise is left to settle on its own; a late rejection is still contained). Never rejects.
 */
export async function stopAdapters(
  adapters: Iterable<Adapter>,
  budgetMs: number,
  observe: (observation: Observation) => void,
): Promise<void> {
  const notice = (adapter: Adapter, name: string, error?: unknown) =>
    observe({
      type: 'adapter_notice',
      at: Date.now(),
      adapter: adapter.name,
      name,
      ...(error === undefined ? {} : { error }),
    });
  const stops = [...adapters].map(async (adapter) => {
    if (!adapter.stop) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timed-out'>((resolve) => {
      timer = setTimeout(() => resolve('timed-out'), budgetMs);
    });
    const stopped = Promise.resolve()
      .then(() => adapter.stop?.())
      .then(
        () => 'stopped' as const,
        (error: unknown) => {
          notice(adapter, 'stop_failed', error);
          return 'failed' as const;
        },
      );
    try {
      if ((await Promise.race([stopped, timedOut])) === 'timed-out') {
        notice(adapter, 'stop_timed_out');
      }
    } finally {
      clearTimeout(timer);
    }
  });
  await Promise.all(stops);
}
