import type { Adapter } from '../adapter/adapter.js';
import type { Observation } from '../observe/observation.js';

/**
 * Runs one shutdown step of every adapter at once: `stop` (SPEC 7, step 2: close inbound
 * connections) or `drain` (after the last outcome: finish outbound follow-ups). A step that throws
 * or rejects is observed as an `adapter_notice` named `<step>_failed`; one still pending after
 * `budgetMs` is observed as `<step>_timed_out` and no longer waited for, so a hung connection
 * cannot hold shutdown forever (its promise is left to settle on its own; a late rejection is
 * still contained). Adapters without the step are skipped. Never rejects.
 */
export async function settleAdapters(
  adapters: Iterable<Adapter>,
  step: 'stop' | 'drain',
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
    if (!adapter[step]) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timed-out'>((resolve) => {
      timer = setTimeout(() => resolve('timed-out'), budgetMs);
    });
    const stopped = Promise.resolve()
      .then(() => adapter[step]?.())
      .then(
        () => 'stopped' as const,
        (error: unknown) => {
          notice(adapter, `${step}_failed`, error);
          return 'failed' as const;
        },
      );
    try {
      if ((await Promise.race([stopped, timedOut])) === 'timed-out') {
        notice(adapter, `${step}_timed_out`);
      }
    } finally {
      clearTimeout(timer);
    }
  });
  await Promise.all(stops);
}
