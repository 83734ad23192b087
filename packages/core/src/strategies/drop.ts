import type { Delivery } from '../dispatch/delivery.js';
import { outcomeForAbort } from '../dispatch/invoke-handlers.js';
import { eventRef } from '../event/event.js';
import { tryAcquireThroughOutage } from '../locks/acquire-when-free.js';
import type { HeldLock } from '../locks/lock-manager.js';
import type { HandledResult } from '../outcomes/outcome.js';
import type { ConcurrencyStrategy, StrategyHost } from './strategy.js';

/**
 * `drop`: try the Thread Lock once; when another delivery holds it, the outcome is `dropped` and a
 * `lock_conflict` observation fires. Slots cover running tails only.
 */
export class DropStrategy implements ConcurrencyStrategy {
  readonly name = 'drop' as const;
  readonly parked = 0;
  readonly #host: StrategyHost;

  constructor(host: StrategyHost) {
    this.#host = host;
  }

  run(delivery: Delivery): Promise<HandledResult> {
    return runLocked(this.#host, delivery, droppedOnConflict);
  }
}

/** `drop`'s answer to a held lock: observed as `lock_conflict`, outcome `dropped`. */
function droppedOnConflict(host: StrategyHost, delivery: Delivery): HandledResult {
  host.observe({
    type: 'lock_conflict',
    at: Date.now(),
    event: eventRef(delivery.event),
    lockKey: delivery.scopeKey,
  });
  return { outcome: 'dropped' };
}

/**
 * Takes the lock on the delivery's scope once, runs its handlers under it and releases it
 * afterwards. `onConflict` decides the result when the lock is held elsewhere. A State
 * failure while acquiring is retried with the configured back-off until the State answers, the
 * delivery's signal aborts (detach timeout: `timed-out`) or shutdown starts (`shutdown`, at once,
 * even with a State call in flight): an accepted delivery never ends `failed` without its handler
 * having run.
 */
export async function runLocked(
  host: StrategyHost,
  delivery: Delivery,
  onConflict: (host: StrategyHost, delivery: Delivery) => HandledResult | Promise<HandledResult>,
): Promise<HandledResult> {
  // Until the handler starts, shutdown ends the delivery at once (docs/contract.md §7, step 3).
  let lock: HeldLock | null;
  try {
    lock = await tryAcquireThroughOutage(host.locks, delivery.scopeKey, {
      initialMs: host.config.lockPollInitialMs,
      maxMs: host.config.lockPollMaxMs,
      signal: delivery.controller,
      also: host.shutdownSignal,
      observe: host.observe,
    });
  } catch (reason) {
    return { outcome: outcomeForAbort(reason), error: reason };
  }
  if (lock === null) return onConflict(host, delivery);
  // Continued by callbacks, not awaited: no frame of this function stays suspended while the
  // handler runs. The lock is released before the result is passed on, whatever happened.
  const held = lock;
  return host.invoke(delivery, { lock: held }).then(
    (result) => held.release().then(() => result),
    (error: unknown) =>
      held.release().then(() => {
        throw error;
      }),
  );
}
