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

/** A started `rt.handler` span and the context its handler runs in. */
export interface HandlerSpan {
  readonly span: Span;
  readonly context: Context;
}

/**
 * Builds spans from observations. An accepted delivery's `rt.delivery` span starts at
 * `dispatch_admitted`, back-dated to the event's receipt, under the context active at dispatch
 * (an instrumented HTTP server's request span), with its `rt.prelude` child from receipt to
 * admission; it ends at the terminal outcome. Each handler run gets an `rt.handler` child.
 * Refused, duplicate and failed-prelude deliveries get one short span from receipt to outcome.
 * Every timestamp is epoch ms from `Date.now()`, the clock observations use.
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

  /** Starts an accepted delivery's span (from receipt) and records its prelude child. */
  startAccepted(o: Of<'dispatch_admitted'>): Span {
    const parent = context.active();
    const receivedAt = Math.min(o.receivedAt, o.at);
    const span = this.#startDelivery(o.event, o.mode, receivedAt, parent);
    this.#tracer
      .startSpan(
        SPANS.prelude,
        { startTime: receivedAt, attributes: { [ATTR.adapter]: o.event.adapter } },
        trace.setSpan(parent, span),
      )
      .end(o.at);
    return span;
  }

  /** Ends the delivery span of `record` at the outcome. */
  finishAccepted(o: Of<'dispatch_finished'>, record: DeliveryRecord): void {
    const { span } = record;
    span.setAttribute(ATTR.outcome, o.outcome);
    if (record.lockConflicts > 0) span.setAttribute(ATTR.lockConflicts, record.lockConflicts);
    this.#endWith(span, o.outcome, o.error, o.at);
  }

  /**
   * A delivery that was never accepted (rejected, duplicate, prelude error, unrouted), or an
   * accepted one whose admission was not recorded: one short span from receipt to its outcome.
   * `reason`: the admission rejection's.
   */
  finishRefused(o: Of<'dispatch_finished'>, reason: string | undefined): void {
    if (o.outcome === 'unrouted' && !this.#traceUnrouted) return;
    const span = this.#startDelivery(
      o.event,
      o.mode,
      Math.min(o.receivedAt, o.at),
      context.active(),
    );
    span.setAttribute(ATTR.outcome, o.outcome);
    if (reason !== undefined) span.setAttribute(ATTR.reason, reason);
    this.#endWith(span, o.outcome, o.error, o.at);
  }

  /**
   * Starts an `rt.handler` span at `now`: under the delivery span of `record`, or under the
   * active context when the delivery is unknown. Returns it with the context to run the handler in.
   */
  startHandler(
    event: RtEvent,
    mode: string,
    record: DeliveryRecord | undefined,
    now: number,
  ): HandlerSpan {
    const active = context.active();
    const parent = record ? trace.setSpan(active, record.span) : active;
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

  #startDelivery(event: EventRef, mode: string, startTime: number, parent: Context): Span {
    const attributes: Attributes = {
      [ATTR.adapter]: event.adapter,
      [ATTR.tenant]: event.tenant,
      [ATTR.shape]: event.shape,
      [ATTR.kind]: event.kind,
      [ATTR.mode]: mode,
      [ATTR.eventId]: event.id,
    };
    if (this.strategy !== undefined) attributes[ATTR.strategy] = this.strategy;
    return this.#tracer.startSpan(
      SPANS.delivery,
      { kind: SpanKind.CONSUMER, startTime, attributes },
      parent,
    );
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
