import type { Handler, HandlerContext } from '../routing/handler.js';
import type { Observer } from './observation.js';

/**
 * Optional capability of an observer: it wraps every handler run, for instrumentation that must
 * be in place while the handler runs, across its awaits (an OpenTelemetry span made the active
 * context, so the handler's own outbound spans nest under it). Detected once, at `createRuntime`,
 * with `hasHandlerInstrumentation`, never required: with no observer carrying it, handlers are
 * called directly and nothing is built per run.
 */
export interface HandlerInstrumentation {
  /**
   * Called once per handler run: for each handler that runs for a delivery (a burst batch's
   * handlers run once, with the batch's `ctx`), just before it starts. It must call `run`
   * exactly once, synchronously, and return what `run` returned (or let what it threw through).
   *
   * The runtime takes the handler's result from `run` itself, so an instrumentation can neither
   * change it nor make the handler run twice: calling `run` again returns the first result.
   * Whatever `aroundHandler` throws, or the promise it returns rejects with (unless it is the
   * handler's own error), is contained like an observer's failure (counted in
   * `stats().observerFailures`, given to `onObserverError` with no observation). If it returns
   * without having called `run` (it threw first, or deferred the call), the runtime calls `run`
   * at once, reports that misuse the same way, and a later call gets the result. So the handler
   * runs exactly once whatever the instrumentation does. With several, the first observer's is
   * the outermost.
   */
  aroundHandler(ctx: HandlerContext, run: () => unknown): unknown;
}

/** True when `observer` carries the optional `HandlerInstrumentation` capability. */
export function hasHandlerInstrumentation(
  observer: Observer,
): observer is Observer & HandlerInstrumentation {
  return typeof (observer as Partial<HandlerInstrumentation>).aroundHandler === 'function';
}

/** Calls `handler` with `ctx` through the instrumentations; returns (or throws) the handler's own result. */
export type HandlerCaller = (handler: Handler, ctx: HandlerContext) => unknown;

/**
 * The caller that runs handlers through every observer's `aroundHandler` (the first observer's
 * outermost), each contained: `fail` receives what one throws or misdoes, and must not throw.
 * `undefined` when no observer carries one: the runtime then calls handlers directly.
 */
export function instrumentHandlers(
  observers: readonly Observer[],
  fail: (error: unknown) => void,
): HandlerCaller | undefined {
  const hooks = observers.filter(hasHandlerInstrumentation);
  if (hooks.length === 0) return undefined;
  const [only] = hooks;
  if (hooks.length === 1 && only) {
    return (handler, ctx) => around(only, ctx, () => handler(ctx), fail);
  }
  return (handler, ctx) => {
    let call = (): unknown => handler(ctx);
    for (let i = hooks.length - 1; i >= 0; i -= 1) {
      const hook = hooks[i] as HandlerInstrumentation;
      const inner = call;
      call = () => around(hook, ctx, inner, fail);
    }
    return call();
  };
}

const PENDING = 0;
const RETURNED = 1;
const THREW = 2;
/** Stands for "the handler did not fail" when comparing rejection reasons. */
const NO_ERROR = Symbol('no error');

/** One instrumentation around `inner`: `inner` runs exactly once, its result is returned. */
function around(
  hook: HandlerInstrumentation,
  ctx: HandlerContext,
  inner: () => unknown,
  fail: (error: unknown) => void,
): unknown {
  let state = PENDING;
  let result: unknown;
  const run = (): unknown => {
    if (state === PENDING) {
      try {
        result = inner();
        state = RETURNED;
      } catch (error) {
        result = error;
        state = THREW;
      }
    }
    if (state === THREW) throw result;
    return result;
  };
  let returned: unknown;
  let failed = false;
  try {
    returned = hook.aroundHandler(ctx, run);
  } catch (error) {
    if (state !== THREW || error !== result) {
      failed = true;
      fail(error);
    }
  }
  if (state === PENDING) {
    if (!failed) {
      fail(
        new TypeError('aroundHandler returned without calling run: the runtime ran the handler'),
      );
    }
    return run();
  }
  if (returned !== result) containReturned(returned, state === THREW, result, fail);
  return run();
}

/**
 * A hook that returned something other than `run`'s result: if it is a promise, its rejection is
 * reported, unless it only passes on the handler's own error (an `async` hook awaiting `run`).
 */
function containReturned(
  returned: unknown,
  threw: boolean,
  result: unknown,
  fail: (error: unknown) => void,
): void {
  try {
    if (!isThenable(returned)) return;
    const own: Promise<unknown> = threw
      ? Promise.resolve(result)
      : isThenable(result)
        ? Promise.resolve(result).then(
            () => NO_ERROR,
            (error: unknown) => error,
          )
        : Promise.resolve(NO_ERROR);
    Promise.resolve(returned).then(undefined, (error: unknown) =>
      own.then((handlerError) => {
        if (error !== handlerError) fail(error);
      }),
    );
  } catch (error) {
    fail(error);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
