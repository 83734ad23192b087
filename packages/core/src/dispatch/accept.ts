import { PreludeError } from '../errors.js';
import { eventRef, type RtEvent } from '../event/event.js';
import { type Delivery, newDelivery } from './delivery.js';
import type { DispatchOptions, DispatchResult } from './dispatch-result.js';
import { markIdentities } from './mark-identities.js';
import type { Admitted, PreludeHost } from './prelude.js';
import { recordPreludeError } from './prelude-failures.js';

/**
 * Step 4 and on: the dedupe mark, then the deferred or sync runner. A deferred delivery is
 * continued by callbacks (no async frame of its own while the State marks it).
 */
export function accept(
  host: PreludeHost,
  admitted: Admitted,
  options: DispatchOptions,
): Promise<DispatchResult> {
  if (admitted.mode !== 'deferred') return acceptSync(host, admitted, options);
  host.ledger.open();
  const ttlMs = markTtlOf(host, admitted.event);
  if (ttlMs <= 0) return Promise.resolve(runDeferred(host, admitted, true));
  let marking: Promise<boolean>;
  try {
    marking = markIdentities(host, admitted.event, ttlMs);
  } catch (error) {
    return Promise.reject(markFailed(host, admitted, error));
  }
  return marking.then(
    (marked) => runDeferred(host, admitted, marked),
    (error: unknown) => {
      throw markFailed(host, admitted, error);
    },
  );
}

/** `accept` for a sync delivery: the mark, then its run, awaited. */
async function acceptSync(
  host: PreludeHost,
  admitted: Admitted,
  options: DispatchOptions,
): Promise<DispatchResult> {
  host.ledger.open();
  const ttlMs = markTtlOf(host, admitted.event);
  let marked = true;
  try {
    if (ttlMs > 0) marked = await markIdentities(host, admitted.event, ttlMs);
  } catch (error) {
    throw markFailed(host, admitted, error);
  }
  const delivery = acceptMarked(host, admitted, marked);
  if (delivery === undefined) return { status: 'duplicate' };
  const result = await host.runner.runSync(delivery, options.signal);
  return { status: 'completed', ...result };
}

/** An event the platform never redelivers may ask for a shorter mark, or none (`dedupeTtlMs: 0`). */
function markTtlOf(host: PreludeHost, event: RtEvent): number {
  return event.dedupeTtlMs ?? host.dedupeTtlMs;
}

/** The deferred runner's `accepted` result for a marked delivery; `duplicate` when it was not. */
function runDeferred(host: PreludeHost, admitted: Admitted, marked: boolean): DispatchResult {
  const delivery = acceptMarked(host, admitted, marked);
  return delivery === undefined ? { status: 'duplicate' } : host.runner.runDeferred(delivery);
}

/**
 * After the mark: a duplicate (`marked` false) frees its slot and is recorded, `undefined`; a
 * first delivery is counted, observed (`dispatch_admitted`, when read) and returned as accepted.
 */
function acceptMarked(
  host: PreludeHost,
  admitted: Admitted,
  marked: boolean,
): Delivery | undefined {
  const { event, handlers, adapter, mode, scopeKey, slot } = admitted;
  if (!marked) {
    slot?.release();
    host.ledger.note(event, mode, { outcome: 'duplicate' }, event.receivedAt, true);
    return undefined;
  }
  host.count('accepted');
  if (host.observing('dispatch_admitted')) {
    host.emit({
      type: 'dispatch_admitted',
      at: Date.now(),
      receivedAt: event.receivedAt,
      event: eventRef(event),
      mode,
    });
  }
  return newDelivery({ event, handlers, adapter, mode, scopeKey, slot });
}

/** The State failed to mark: the slot frees, a prelude error is recorded and returned. */
function markFailed(host: PreludeHost, admitted: Admitted, error: unknown): PreludeError {
  admitted.slot?.release();
  recordPreludeError(host, admitted.event, admitted.mode, error, true);
  return new PreludeError(`could not mark event ${admitted.event.id}: the State failed`, {
    cause: error,
  });
}
