import type { Adapter } from '../adapter/adapter.js';
import { adapterNotice } from '../adapter-kit/notices.js';
import type { Observation } from '../observe/observation.js';
import { abortable, timeoutSignal } from '../util/signals.js';

/** The notices the runtime itself emits about adapters' shutdown steps: a union, never built. */
type StepNoticeName = 'stop_failed' | 'stop_timed_out' | 'drain_failed' | 'drain_timed_out';

const STEP_NOTICES: Readonly<
  Record<'stop' | 'drain', { readonly failed: StepNoticeName; readonly timedOut: StepNoticeName }>
> = Object.freeze({
  stop: { failed: 'stop_failed', timedOut: 'stop_timed_out' },
  drain: { failed: 'drain_failed', timedOut: 'drain_timed_out' },
});

/**
 * Runs one shutdown step of every adapter at once: `stop` (docs/contract.md §7, step 2: close inbound
 * connections) or `drain` (after the last outcome: finish outbound follow-ups). Each adapter gets
 * a signal that aborts after `budgetMs` (a `TimeoutError` `DOMException`), so it can give up its
 * work instead of leaving it running. A step still pending at the budget is observed as an
 * `adapter_notice` named `<step>_timed_out` and no longer waited for (its promise is left to
 * settle on its own; a late rejection is contained); one that throws or rejects before is
 * observed as `<step>_failed`. Adapters without the step are skipped. Never rejects.
 */
export async function settleAdapters(
  adapters: Iterable<Adapter>,
  step: 'stop' | 'drain',
  budgetMs: number,
  observe: (observation: Observation) => void,
): Promise<void> {
  const steps = [...adapters].map(async (adapter) => {
    if (!adapter[step]) return;
    const budget = timeoutSignal(budgetMs, `adapter ${step} ran past its budget of ${budgetMs} ms`);
    try {
      await abortable(
        Promise.resolve().then(() => adapter[step]?.(budget.signal)),
        budget.signal,
      );
    } catch (error) {
      const names = STEP_NOTICES[step];
      if (budget.signal.aborted) observe(adapterNotice(adapter.name, names.timedOut));
      else observe(adapterNotice(adapter.name, names.failed, undefined, error));
    } finally {
      budget.clear();
    }
  });
  await Promise.all(steps);
}
