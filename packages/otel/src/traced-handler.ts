import { context } from '@opentelemetry/api';
import type { Handler, HandlerContext } from '@rt/core';
import type { DeliveryTracker, HandlerRun } from './delivery-tracker.js';

/**
 * Wraps `handler` so each call runs in its `rt.handler` span's context and is timed. The handler
 * is called exactly once per call, whatever the tracing does: a failure to start the span runs it
 * untraced, a failure to end it is reported. Its return value or thrown error passes through.
 */
export function tracedHandler<Payload>(
  handler: Handler<Payload>,
  tracker: DeliveryTracker,
  report: (step: string, error: unknown) => void,
): Handler<Payload> {
  if (typeof handler !== 'function') throw new TypeError('traced(handler) needs a function');
  const end = (run: HandlerRun, ctx: HandlerContext, threw: boolean, error: unknown) => {
    try {
      tracker.endHandler(run, ctx, threw, error);
    } catch (failure) {
      report('traced', failure);
    }
  };
  return (typed: HandlerContext<Payload>) => {
    const ctx = typed as HandlerContext;
    let run: HandlerRun;
    try {
      run = tracker.beginHandler(ctx);
    } catch (error) {
      report('traced', error);
      return handler(typed);
    }
    let result: unknown;
    try {
      result = run.span
        ? context.with(run.span.context, handler, undefined, typed)
        : handler(typed);
    } catch (error) {
      end(run, ctx, true, error);
      throw error;
    }
    if (!isThenable(result)) {
      end(run, ctx, false, undefined);
      return result;
    }
    return Promise.resolve(result).then(
      (value) => {
        end(run, ctx, false, undefined);
        return value;
      },
      (error: unknown) => {
        end(run, ctx, true, error);
        throw error;
      },
    );
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
