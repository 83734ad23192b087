import { ACCEPTED_OUTCOMES, type HandlerContext, type Observation, type Outcome } from '@rt/core';
import { type DeliveryRecord, recordKey } from './delivery-record.js';
import type { RtMetrics } from './metrics.js';
import type { HandlerSpan, RtTraces } from './traces.js';

/** A traced handler call in progress. */
export interface HandlerRun {
  /** Epoch ms at the call. */
  readonly at: number;
  readonly span: HandlerSpan | undefined;
}

/**
 * Routes observations to the metrics and the spans, and keeps one `DeliveryRecord` per accepted
 * delivery from `dispatch_admitted` to its `dispatch_finished` (so the map holds at most the
 * deliveries in flight). Also the two ends of a `traced` handler call. Every method may throw
 * (a broken meter or tracer): the caller contains it.
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
    const records = this.#records;
    switch (o.type) {
      case 'dispatch_admitted': {
        records.set(recordKey(o.event.adapter, o.event.tenant, o.event.id), {
          event: o.event,
          mode: o.mode,
          admittedAt: o.at,
          span: undefined,
          measured: false,
          lockConflicts: 0,
          supersededBy: undefined,
        });
        metrics?.admitted(o);
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
        const admitted = isAccepted(o.outcome);
        const key = admitted ? recordKey(o.event.adapter, o.event.tenant, o.event.id) : '';
        const record = admitted ? records.get(key) : undefined;
        if (record) records.delete(key);
        try {
          metrics?.finished(o, record !== undefined, record?.measured ?? false);
        } finally {
          // A failing meter must not leave the delivery's span open.
          if (traces) this.#finishSpan(traces, o, record);
        }
        return;
      }
      case 'lock_conflict': {
        const record = records.get(recordKey(o.event.adapter, o.event.tenant, o.event.id));
        if (record) record.lockConflicts += 1;
        metrics?.lockConflict(o);
        return;
      }
      case 'superseded': {
        const record = records.get(recordKey(o.event.adapter, o.event.tenant, o.event.id));
        if (record) record.supersededBy = o.by.id;
        return;
      }
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

  #finishSpan(
    traces: RtTraces,
    o: Extract<Observation, { type: 'dispatch_finished' }>,
    record: DeliveryRecord | undefined,
  ): void {
    const last = this.#rejection;
    this.#rejection = undefined;
    if (record) {
      traces.finishAccepted(o, record);
      return;
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

  /** A traced handler is being called now: marks its deliveries measured, starts its span. */
  beginHandler(ctx: HandlerContext): HandlerRun {
    const metrics = this.#metrics;
    const records = this.#records;
    const at = Date.now();
    const { event } = ctx;
    const record = records.get(recordKey(event.adapter, event.tenant, event.id));
    if (metrics) {
      // A burst batch runs one handler for every member: none of them gets a derived duration.
      for (const member of ctx.batch ?? []) {
        const r = records.get(recordKey(member.adapter, member.tenant, member.id));
        if (r) r.measured = true;
      }
      if (record) record.measured = true;
    }
    return { at, span: this.#traces?.startHandler(event, ctx.mode, record, at) };
  }

  /** The traced handler settled: `threw` with `error`, or returned. */
  endHandler(run: HandlerRun, ctx: HandlerContext, threw: boolean, error: unknown): void {
    const now = Date.now();
    try {
      this.#metrics?.handlerMeasured(
        ctx.event.adapter,
        ctx.event.shape,
        Math.max(0, now - run.at) / 1000,
        !threw,
      );
    } finally {
      if (run.span) this.#traces?.endHandler(run.span, threw, error, now);
    }
  }
}

function isAccepted(outcome: Outcome): boolean {
  return (ACCEPTED_OUTCOMES as readonly string[]).includes(outcome);
}
