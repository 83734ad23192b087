import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it, vi } from 'vitest';
import { createRuntime } from '../runtime/create-runtime.js';
import { setup } from '../test-support/setup.js';
import { flush } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';
import {
  type HandlerInstrumentation,
  hasHandlerInstrumentation,
  instrumentHandlers,
} from './handler-instrumentation.js';
import type { Observation, Observer } from './observation.js';

/** An observer that ignores observations and carries `aroundHandler`. */
function instrumented(aroundHandler: HandlerInstrumentation['aroundHandler']): Observer {
  return Object.assign((_: Observation) => {}, { aroundHandler });
}

/** A sync runtime with `observer`, counting handler calls; `onObserverError` recorded. */
function syncRuntime(observer: Observer, handler: () => unknown = () => ({ text: 'mine' })) {
  const errors: [unknown, Observation | undefined][] = [];
  const ran = vi.fn(handler);
  const h = setup({
    dispatchMode: 'sync',
    observers: [observer],
    onObserverError: (error, observation) => void errors.push([error, observation]),
  });
  h.runtime.onMessage(ran);
  return { ...h, ran, errors };
}

describe('handler instrumentation', () => {
  it('is absent when no observer carries aroundHandler, so handlers are called directly', () => {
    expect(instrumentHandlers([() => {}], () => {})).toBeUndefined();
    expect(hasHandlerInstrumentation(() => {})).toBe(false);
    expect(hasHandlerInstrumentation(instrumented((_, run) => run()))).toBe(true);
  });

  it('wraps every handler run once, around the handler, with its context', async () => {
    const calls: string[] = [];
    const { runtime, adapter } = setup({
      dispatchMode: 'sync',
      observers: [
        instrumented((ctx, run) => {
          calls.push(`before ${ctx.event.id}`);
          const result = run();
          calls.push(`after ${ctx.event.id}`);
          return result;
        }),
      ],
    });
    runtime.onMessage(() => void calls.push('first handler'));
    runtime.onMessage(() => {
      calls.push('second handler');
      return { text: 'reply' };
    });
    const result = await adapter.send({ id: 'E1' });
    expect(result).toMatchObject({ status: 'completed', outcome: 'completed' });
    expect(result.status === 'completed' && result.response).toEqual({ text: 'reply' });
    expect(calls).toEqual([
      'before E1',
      'first handler',
      'after E1',
      'before E1',
      'second handler',
      'after E1',
    ]);
    expect(runtime.stats().observerFailures).toBe(0);
  });

  it("runs the handler inside the instrumentation's async context, across its awaits", async () => {
    const store = new AsyncLocalStorage<string>();
    const { runtime, adapter } = setup({
      observers: [instrumented((ctx, run) => store.run(`span of ${ctx.event.id}`, run))],
    });
    const seen: (string | undefined)[] = [];
    runtime.onMessage(async () => {
      seen.push(store.getStore());
      await flush();
      seen.push(store.getStore());
    });
    const result = await adapter.send({ id: 'E1' });
    if (result.status === 'accepted') await result.settled;
    expect(seen).toEqual(['span of E1', 'span of E1']);
  });

  it('nests several instrumentations, the first observer outermost', async () => {
    const calls: string[] = [];
    const wrap = (name: string) =>
      instrumented((_, run) => {
        calls.push(`${name} in`);
        try {
          return run();
        } finally {
          calls.push(`${name} out`);
        }
      });
    const { runtime, adapter } = setup({ dispatchMode: 'sync', observers: [wrap('a'), wrap('b')] });
    runtime.onMessage(() => void calls.push('handler'));
    await adapter.send();
    expect(calls).toEqual(['a in', 'b in', 'handler', 'b out', 'a out']);
  });

  it('refuses an observer whose aroundHandler is not a function', () => {
    const observer = Object.assign(() => {}, { aroundHandler: 5 });
    expect(() => createRuntime({ state: new TestState(), observers: [observer] })).toThrow(
      /observers\[0\]\.aroundHandler must be a function/,
    );
  });
});

describe('a misbehaving instrumentation', () => {
  it('that throws before calling run is contained, and the handler still runs once', async () => {
    const failure = new Error('instrumentation broke');
    const { adapter, runtime, ran, errors } = syncRuntime(
      instrumented(() => {
        throw failure;
      }),
    );
    const result = await adapter.send();
    expect(result).toMatchObject({ outcome: 'completed', response: { text: 'mine' } });
    expect(ran).toHaveBeenCalledTimes(1);
    expect(errors).toEqual([[failure, undefined]]);
    expect(runtime.stats().observerFailures).toBe(1);
  });

  it('that throws after calling run is contained, and the outcome is the handler’s', async () => {
    const { adapter, runtime, ran, errors } = syncRuntime(
      instrumented((_, run) => {
        run();
        throw new Error('after');
      }),
    );
    expect(await adapter.send()).toMatchObject({
      outcome: 'completed',
      response: { text: 'mine' },
    });
    expect(ran).toHaveBeenCalledTimes(1);
    expect(errors).toHaveLength(1);
    expect(runtime.stats().observerFailures).toBe(1);
  });

  it('that never calls run gets the handler run for it, once', async () => {
    const { adapter, ran, errors } = syncRuntime(instrumented(() => 'something else'));
    expect(await adapter.send()).toMatchObject({
      outcome: 'completed',
      response: { text: 'mine' },
    });
    expect(ran).toHaveBeenCalledTimes(1);
    expect(errors.map(([error]) => String(error))).toEqual([
      expect.stringContaining('without calling run'),
    ]);
  });

  it('that calls run twice runs the handler once, and gets the same result twice', async () => {
    const results: unknown[] = [];
    const { adapter, ran, errors } = syncRuntime(
      instrumented((_, run) => {
        results.push(run(), run());
        return results[0];
      }),
    );
    expect(await adapter.send()).toMatchObject({ outcome: 'completed' });
    expect(ran).toHaveBeenCalledTimes(1);
    expect(results[0]).toBe(results[1]);
    expect(errors).toEqual([]);
  });

  it('that calls run late gets the result the runtime already had, the handler running once', async () => {
    let late: unknown;
    const { adapter, ran, errors } = syncRuntime(
      instrumented(async (_, run) => {
        await flush();
        late = run();
        return late;
      }),
    );
    expect(await adapter.send()).toMatchObject({
      outcome: 'completed',
      response: { text: 'mine' },
    });
    await flush();
    expect(ran).toHaveBeenCalledTimes(1);
    expect(late).toEqual({ text: 'mine' });
    expect(errors).toHaveLength(1);
  });

  it('that returns a rejecting promise of its own is contained', async () => {
    const { adapter, ran, errors } = syncRuntime(
      instrumented((_, run) => {
        run();
        return Promise.reject(new Error('own failure'));
      }),
    );
    expect(await adapter.send()).toMatchObject({
      outcome: 'completed',
      response: { text: 'mine' },
    });
    await flush();
    expect(ran).toHaveBeenCalledTimes(1);
    expect(errors.map(([error]) => (error as Error).message)).toEqual(['own failure']);
  });

  it("passing on the handler's own error is not a failure of the instrumentation", async () => {
    const handlerError = new Error('handler failed');
    const asyncHook = syncRuntime(
      instrumented(async (_, run) => await run()),
      async () => {
        throw handlerError;
      },
    );
    expect(await asyncHook.adapter.send()).toMatchObject({
      outcome: 'failed',
      error: handlerError,
    });
    const syncThrow = syncRuntime(
      instrumented((_, run) => run()),
      () => {
        throw handlerError;
      },
    );
    expect(await syncThrow.adapter.send()).toMatchObject({
      outcome: 'failed',
      error: handlerError,
    });
    await flush();
    expect(asyncHook.ran).toHaveBeenCalledTimes(1);
    expect(syncThrow.ran).toHaveBeenCalledTimes(1);
    expect([...asyncHook.errors, ...syncThrow.errors]).toEqual([]);
  });
});
