import { context } from '@opentelemetry/api';
import {
  ACCEPTED_OUTCOMES,
  type Handler,
  type HandlerContext,
  type Observation,
  type Observer,
  type Outcome,
  type Runtime,
} from '@rt/core';
import { type DeliveryRecord, recordKey } from './delivery-record.js';
import { AlreadyBoundError, RecordingError } from './errors.js';
import { RtMetrics } from './metrics.js';
import { type OtelObserverOptions, resolveOtelObserverOptions } from './options.js';
import { type HandlerSpan, RtTraces } from './traces.js';

/** What `bindRuntime` reads: a runtime's `stats()` and its resolved strategy. */
export type BindableRuntime = Pick<Runtime, 'stats' | 'options'>;

/**
 * An rt `Observer` that records OpenTelemetry metrics and spans, with two helpers. Pass it in
 * `createRuntime({ observers: [otel] })`, then call `otel.bindRuntime(runtime)` once for the
 * observable gauges. It never throws and never waits: a failing meter, tracer or exporter is
 * reported to `onError` and dispatch carries on.
 */
export interface OtelObserver extends Observer {
  /**
   * Registers the observable gauges (`rt.detached.in_flight`, `rt.detached.high_water`,
   * `rt.parked`, `rt.sync.in_flight`, `rt.tenant.in_flight`) against `runtime.stats()`, read once
   * per metric collection, and tags spans with the runtime's strategy. Returns the function that
   * unregisters them. Throws `AlreadyBoundError` while another runtime is bound.
   */
  bindRuntime(runtime: BindableRuntime): () => void;
  /**
   * Wraps a handler so it runs inside an `rt.handler` span, child of its delivery span: the
   * handler's own outbound calls (HTTP, database, ...) nest under the delivery. Also measures
   * `rt.handler.duration` exactly. The handler runs once whatever the tracing does; what it
   * returns or throws passes through unchanged. Returns `handler` itself when no provider is set.
   */
  traced<Payload = unknown>(handler: Handler<Payload>): Handler<Payload>;
}

/**
 * Creates the observer. With neither `meterProvider` nor `tracerProvider` set it does nothing and
 * allocates nothing per observation. Throws `TypeError`/`RangeError` for bad options.
 */
export function otelObserver(options: OtelObserverOptions = {}): OtelObserver {
  const resolved = resolveOtelObserverOptions(options);
  const report = (step: string, error: unknown): void => {
    try {
      resolved.onError(new RecordingError(step, error));
    } catch {
      // The error hook is contained too: recording must never reach dispatch.
    }
  };
  const metrics = build('meter', report, () =>
    resolved.meterProvider
      ? new RtMetrics(resolved.meterProvider, resolved.tenantCardinality)
      : undefined,
  );
  const traces = build('tracer', report, () =>
    resolved.tracerProvider
      ? new RtTraces(resolved.tracerProvider, resolved.recordErrorMessages, resolved.traceUnrouted)
      : undefined,
  );
  let bound: BindableRuntime | undefined;
  const bindRuntime = (runtime: BindableRuntime): (() => void) => {
    if (typeof runtime?.stats !== 'function') {
      throw new TypeError('bindRuntime needs a runtime (with stats())');
    }
    if (bound) throw new AlreadyBoundError();
    bound = runtime;
    if (traces) traces.strategy = runtime.options?.concurrency?.strategy;
    let unbindGauges = () => {};
    try {
      if (metrics) {
        unbindGauges = metrics.bindGauges(
          () => runtime.stats(),
          (error) => report('gauges', error),
        );
      }
    } catch (error) {
      report('bindRuntime', error);
    }
    let unbound = false;
    return () => {
      if (unbound) return;
      unbound = true;
      bound = undefined;
      if (traces) traces.strategy = undefined;
      try {
        unbindGauges();
      } catch (error) {
        report('unbind', error);
      }
    };
  };

  if (!metrics && !traces) {
    const observer: Observer = () => {};
    return Object.assign(observer, {
      bindRuntime,
      traced: <Payload>(handler: Handler<Payload>) => handler,
    });
  }

  const records = new Map<string, DeliveryRecord>();
  /** The reason of the `admission_rejected` just emitted; its `dispatch_finished` follows at once. */
  let rejection: { adapter: string; tenant: string; id: string; reason: string } | undefined;

  const observe = (o: Observation): void => {
    try {
      handle(o);
    } catch (error) {
      report(o.type, error);
    }
  };

  const handle = (o: Observation): void => {
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
        rejection = { adapter: o.adapter, tenant: o.tenant, id: o.event.id, reason: o.reason };
        metrics?.rejected(o);
        return;
      case 'dispatch_finished': {
        const admitted = isAccepted(o.outcome);
        const key = admitted ? recordKey(o.event.adapter, o.event.tenant, o.event.id) : '';
        const record = admitted ? records.get(key) : undefined;
        if (record) records.delete(key);
        metrics?.finished(o, record !== undefined, record?.measured ?? false);
        if (!traces) return;
        if (record) {
          traces.finishAccepted(o, record);
          return;
        }
        const last = rejection;
        rejection = undefined;
        const reason =
          last !== undefined &&
          o.outcome === 'admission-rejected' &&
          last.id === o.event.id &&
          last.adapter === o.event.adapter &&
          last.tenant === o.event.tenant
            ? last.reason
            : undefined;
        traces.finishRefused(o, reason);
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
  };

  const traced = <Payload>(handler: Handler<Payload>): Handler<Payload> => {
    if (typeof handler !== 'function') throw new TypeError('traced(handler) needs a function');
    return (ctx: HandlerContext<Payload>) => {
      let started: Started | undefined;
      try {
        started = begin(ctx as HandlerContext);
      } catch (error) {
        report('traced', error);
        return handler(ctx);
      }
      let result: unknown;
      try {
        result = started.span
          ? context.with(started.span.context, handler, undefined, ctx)
          : handler(ctx);
      } catch (error) {
        end(started, ctx as HandlerContext, true, error);
        throw error;
      }
      if (!isThenable(result)) {
        end(started, ctx as HandlerContext, false, undefined);
        return result;
      }
      return Promise.resolve(result).then(
        (value) => {
          end(started, ctx as HandlerContext, false, undefined);
          return value;
        },
        (error: unknown) => {
          end(started, ctx as HandlerContext, true, error);
          throw error;
        },
      );
    };
  };

  interface Started {
    readonly at: number;
    readonly span: HandlerSpan | undefined;
  }

  const begin = (ctx: HandlerContext): Started => {
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
    return { at, span: traces?.startHandler(event, ctx.mode, record, at) };
  };

  const end = (started: Started, ctx: HandlerContext, threw: boolean, error: unknown): void => {
    try {
      const now = Date.now();
      metrics?.handlerMeasured(
        ctx.event.adapter,
        ctx.event.shape,
        Math.max(0, now - started.at) / 1000,
        !threw,
      );
      if (started.span) traces?.endHandler(started.span, threw, error, now);
    } catch (failure) {
      report('traced', failure);
    }
  };

  return Object.assign(observe, { bindRuntime, traced });
}

function isAccepted(outcome: Outcome): boolean {
  return (ACCEPTED_OUTCOMES as readonly string[]).includes(outcome);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function build<T>(
  step: string,
  report: (step: string, error: unknown) => void,
  make: () => T,
): T | undefined {
  try {
    return make();
  } catch (error) {
    report(step, error);
    return undefined;
  }
}
