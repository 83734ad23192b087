import type { Adapter } from '../adapter/adapter.js';
import type { DeliveryRunner } from '../dispatch/delivery-runner.js';
import { ShutdownError } from '../errors.js';
import type { LockManager } from '../locks/lock-manager.js';
import type { Observation } from '../observe/observation.js';
import { timeoutSignal } from '../util/signals.js';
import type { OutcomeLedger } from './outcome-ledger.js';
import { settleAdapters } from './settle-adapters.js';

/** What the shutdown sequence acts on; the runtime owns all of it. */
export interface ShutdownHost {
  readonly adapters: readonly Adapter[];
  readonly runner: DeliveryRunner;
  readonly ledger: OutcomeLedger;
  readonly locks: LockManager;
  /** Aborted at step 3: parked waiters, lines, open batches and lock retries leave at once. */
  readonly controller: { abort(reason: unknown): void };
  emit(observation: Observation): void;
  /** Called right before `shutdown_finished`: from then on no observation about work is emitted. */
  finished(): void;
}

/** Throws `RangeError` naming a shutdown budget that is not a finite number >= 0. */
export function validateShutdownBudgets(graceMs: unknown, abandonMs: unknown): void {
  for (const [name, value] of [
    ['graceMs', graceMs],
    ['abandonAfterMs', abandonMs],
  ] as const) {
    if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) {
      throw new RangeError(`${name} must be a finite number >= 0, got ${String(value)}`);
    }
  }
}

/**
 * The shutdown sequence (docs/contract.md §7) after admission closed (step 1, done synchronously by the
 * caller): (2) adapters stop their inbound connections; (3) every delivery whose handler has not
 * started ends `shutdown` now, and deliveries whose handler already finished get their outcome
 * now; (4) running handlers get `graceMs`, then their signal aborts with `ShutdownError`; those
 * still running `abandonMs` later are abandoned with outcome `shutdown`; (5) once every delivery
 * has its outcome, the lock I/O still owed (every release a finished delivery owes, started or
 * not, and a lease granted after its delivery gave up) gets its own `abandonMs` budget, then
 * adapters drain. Never rejects.
 */
export async function runShutdown(
  host: ShutdownHost,
  graceMs: number,
  abandonMs: number,
): Promise<void> {
  host.emit({ type: 'shutdown_started', at: Date.now() });
  host.controller.abort(new ShutdownError('runtime shutting down'));
  host.runner.shutdownStarted();
  let abandonTimer: ReturnType<typeof setTimeout> | undefined;
  const graceTimer = setTimeout(() => {
    host.runner.abortRunning();
    abandonTimer = setTimeout(() => host.runner.abandonRunning(), abandonMs);
  }, graceMs);
  try {
    await settleAdapters(host.adapters, 'stop', graceMs + abandonMs, host.emit);
    await host.ledger.drained();
  } finally {
    clearTimeout(graceTimer);
    clearTimeout(abandonTimer);
  }
  await lockIoSettled(host.locks, abandonMs);
  await settleAdapters(host.adapters, 'drain', graceMs + abandonMs, host.emit);
  host.finished();
  host.emit({ type: 'shutdown_finished', at: Date.now() });
}

/**
 * Waits up to `budgetMs` for the lock I/O still owed (acquires in flight, releases owed by
 * deliveries that finished or gave up); what is left then settles on its own.
 */
async function lockIoSettled(locks: LockManager, budgetMs: number): Promise<void> {
  if (locks.ioOwed === 0) return;
  const budget = timeoutSignal(budgetMs, `lock I/O ran past its budget of ${budgetMs} ms`);
  try {
    await locks.ioSettled(budget.signal);
  } catch {
    // Budget over: late answers release what they got; nothing about them is observed.
  } finally {
    budget.clear();
  }
}
