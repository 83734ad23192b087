import { ACCEPTED_OUTCOMES, type HandlerContext, type Observation, type Outcome } from '@rt/core';
import { type DeliveryRecord, recordKey } from './delivery-record.js';
import type { RtMetrics } from './metrics.js';
import { ATTR } from './names.js';
import type { HandlerSpan, RtTraces } from './traces.js';

/**
 * Routes observations to the metrics and the spans. With a tracer it keeps one `DeliveryRecord`
 * (the open delivery span) per accepted delivery from `dispatch_admitted` to its
 * `dispatch_finished`, so the map holds at most the deliveries in flight; with a meter alone it
 * keeps nothing per delivery. Also starts and ends the `rt.handler` spans of `aroundHandler`.
 * Every method may throw (a broken meter or tracer): the caller contains it.
 */
export class DeliveryTracker {
  readonly #metrics: RtMetrics | undefined;
  readonly #traces: RtTraces | undefined;
  readonly #records = new Map<string, DeliveryRecord>();
  /** The `admission_rejected` just emitted: its `dispatch_finished` follows synchronously. */
  #rejection: { adapter: string; tenant: string; id: string; reason: string } | undefined;

  constructor(metrics: RtMetrics | undefined, traces: RtTraces | undefined) {
    this.#metrics = metrics;
    this.#traces = traces;
  }

  /** Records one observation. */
  observe(o: Observation): void {
    const metrics = this.#metrics;
    const traces = this.#traces;
    switch (o.type) {
      case 'dispatch_admitted': {
        try {
          metrics?.admitted(o);
        } finally {
          // A failing meter must not cost the delivery its span.
          if (traces) {
            this.#records.set(recordKey(o.event.adapter, o.event.tenant, o.event.id), {
              span: traces.startAccepted(o),
              lockConflicts: 0,
            });
          }
        }
        return;
      }
      case 'admission_rejected':
        this.#rejection = {
          adapter: o.adapter,
          tenant: o.tenant,
          id: o.event.id,
          reason: o.reason,
        };
        metrics?.rejected(o);
        return;
      case 'dispatch_finished': {
        const accepted = isAccepted(o.outcome);
        try {
          metrics?.finished(o, accepted);
        } finally {
          // A failing meter must not leave the delivery's span open.
          if (traces) this.#finishSpan(traces, o, accepted);
        }
        return;
      }
      case 'lock_conflict': {
        const record = this.#recordOf(o.event);
        if (record) record.lockConflicts += 1;
        metrics?.lockConflict(o);
        return;
      }
      case 'superseded':
        this.#recordOf(o.event)?.span.setAttribute(ATTR.supersededBy, o.by.id);
        return;
      case 'lease_lost':
        metrics?.leaseLost(o);
        return;
      case 'prelude_error':
        metrics?.preludeError(o);
        return;
      case 'state_error':
        metrics?.stateError(o);
        return;
      case 'adapter_notice':
        metrics?.notice(o);
        return;
      default:
        return;
    }
  }

  /**
   * A handler of `ctx.event` is starting: its `rt.handler` span, a child of the delivery span
   * (or of the active context when the delivery is unknown). `undefined` without a tracer.
   */
  beginHandler(ctx: HandlerContext): HandlerSpan | undefined {
    return this.#traces?.startHandler(ctx.event, ctx.mode, this.#recordOf(ctx.event), Date.now());
  }

  /** The handler settled: `threw` with `error`, or returned. */
  endHandler(handler: HandlerSpan, threw: boolean, error: unknown): void {
    this.#traces?.endHandler(handler, threw, error, Date.now());
  }

  #recordOf(event: { adapter: string; tenant: string; id: string }): DeliveryRecord | undefined {
    if (!this.#traces) return undefined;
    return this.#records.get(recordKey(event.adapter, event.tenant, event.id));
  }

  #finishSpan(
    traces: RtTraces,
    o: Extract<Observation, { type: 'dispatch_finished' }>,
    accepted: boolean,
  ): void {
    const last = this.#rejection;
    this.#rejection = undefined;
    if (accepted) {
      const key = recordKey(o.event.adapter, o.event.tenant, o.event.id);
      const record = this.#records.get(key);
      if (record) {
        this.#records.delete(key);
        traces.finishAccepted(o, record);
        return;
      }
    }
    const reason =
      last !== undefined &&
      o.outcome === 'admission-rejected' &&
      last.id === o.event.id &&
      last.adapter === o.event.adapter &&
      last.tenant === o.event.tenant
        ? last.reason
        : undefined;
    traces.finishRefused(o, reason);
  }
}

function isAccepted(outcome: Outcome): boolean {
  return (ACCEPTED_OUTCOMES as readonly string[]).includes(outcome);
}
