import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { EventRef, Observation, RtEvent } from '@rt/core';
import type { DeliveryRecord } from './delivery-record.js';
import { ATTR, SCOPE_NAME, SPANS } from './names.js';

type Of<T extends Observation['type']> = Extract<Observation, { type: T }>;

/** Outcomes whose span status is ERROR (the rest are not errors of the delivery itself). */
const ERROR_OUTCOMES = new Set(['failed', 'timed-out', 'preempted', 'prelude-error']);

/** A started `rt.handler` span and the context a traced handler runs in. */
export interface HandlerSpan {
  readonly span: Span;
  readonly context: Context;
}

/**
 * Builds spans from observations. The delivery span of an accepted delivery starts lazily: at
 * handler start when the handler is `traced` (then from `event.receivedAt`, with an `rt.prelude`
 * child up to admission), else at the outcome (then from `dispatch_admitted.at`). Refused,
 * duplicate and failed-prelude deliveries get a short span from receipt to outcome. Every
 * timestamp is epoch ms from `Date.now()`, the clock observations use.
 */
export class RtTraces {
  readonly #tracer: Tracer;
  readonly #recordMessages: boolean;
  readonly #traceUnrouted: boolean;
  /** The bound runtime's strategy, for `rt.strategy`. */
  strategy: string | undefined;

  constructor(provider: TracerProvider, recordMessages: boolean, traceUnrouted: boolean) {
    this.#tracer = provider.getTracer(SCOPE_NAME);
    this.#recordMessages = recordMessages;
    this.#traceUnrouted = traceUnrouted;
  }

  /** Ends the delivery span of `record` (starting it first if no handler did) at the outcome. */
  finishAccepted(o: Of<'dispatch_finished'>, record: DeliveryRecord): void {
    const span = record.span ?? this.#startDelivery(record.event, record.mode, record.admittedAt);
    record.span = span;
    span.setAttribute(ATTR.outcome, o.outcome);
    if (record.lockConflicts > 0) span.setAttribute(ATTR.lockConflicts, record.lockConflicts);
    if (record.supersededBy !== undefined)
      span.setAttribute(ATTR.supersededBy, record.supersededBy);
    this.#endWith(span, o.outcome, o.error, o.at);
  }

  /**
   * A delivery that was never accepted (rejected, duplicate, prelude error, unrouted): one short
   * span from receipt (`at - durationMs`) to its outcome. `reason`: the admission rejection's.
   */
  finishRefused(o: Of<'dispatch_finished'>, reason: string | undefined): void {
    if (o.outcome === 'unrouted' && !this.#traceUnrouted) return;
    const span = this.#startDelivery(o.event, o.mode, o.at - o.durationMs);
    span.setAttribute(ATTR.outcome, o.outcome);
    if (reason !== undefined) span.setAttribute(ATTR.reason, reason);
    this.#endWith(span, o.outcome, o.error, o.at);
  }

  /**
   * Starts the `rt.handler` span for a traced handler: under the delivery span of `record`
   * (started now from `event.receivedAt`, with its `rt.prelude` child, if not yet started), or
   * under the active context when the delivery is unknown.
   */
  startHandler(
    event: RtEvent,
    mode: string,
    record: DeliveryRecord | undefined,
    now: number,
  ): HandlerSpan {
    let parent = context.active();
    if (record) {
      if (!record.span) {
        const start = Math.min(event.receivedAt, record.admittedAt);
        record.span = this.#startDelivery(record.event, record.mode, start);
        const prelude = this.#tracer.startSpan(
          SPANS.prelude,
          { startTime: start, attributes: { [ATTR.adapter]: event.adapter } },
          trace.setSpan(parent, record.span),
        );
        prelude.end(record.admittedAt);
      }
      parent = trace.setSpan(parent, record.span);
    }
    const span = this.#tracer.startSpan(
      SPANS.handler,
      {
        startTime: now,
        attributes: {
          [ATTR.adapter]: event.adapter,
          [ATTR.shape]: event.shape,
          [ATTR.mode]: mode,
        },
      },
      parent,
    );
    return { span, context: trace.setSpan(parent, span) };
  }

  /** Ends a handler span; `error` when the handler threw (`undefined` when it returned). */
  endHandler(handler: HandlerSpan, threw: boolean, error: unknown, now: number): void {
    if (threw) this.#recordError(handler.span, error);
    handler.span.end(now);
  }

  #startDelivery(event: EventRef, mode: string, startTime: number): Span {
    const attributes: Attributes = {
      [ATTR.adapter]: event.adapter,
      [ATTR.tenant]: event.tenant,
      [ATTR.shape]: event.shape,
      [ATTR.kind]: event.kind,
      [ATTR.mode]: mode,
      [ATTR.eventId]: event.id,
    };
    if (this.strategy !== undefined) attributes[ATTR.strategy] = this.strategy;
    return this.#tracer.startSpan(SPANS.delivery, {
      kind: SpanKind.CONSUMER,
      startTime,
      attributes,
    });
  }

  #endWith(span: Span, outcome: string, error: unknown, at: number): void {
    if (ERROR_OUTCOMES.has(outcome)) this.#recordError(span, error, outcome);
    else if (error !== undefined) span.setAttribute(ATTR.errorType, errorType(error));
    span.end(at);
  }

  #recordError(span: Span, error: unknown, fallback = 'error'): void {
    const type = error === undefined ? fallback : errorType(error);
    span.setAttribute(ATTR.errorType, type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: type });
    if (this.#recordMessages && error !== undefined) {
      span.recordException(error instanceof Error ? error : String(error));
    }
  }
}

/** An error's `code` when it has a string one, else its `name`; never its message. */
export function errorType(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string' && name !== '') return name;
  }
  return typeof error;
}
