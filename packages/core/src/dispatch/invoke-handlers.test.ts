/**
 * `invokeHandlers` is a record continued by callbacks, not an async function: these pin the
 * `await` semantics it keeps (thenables adopted once, a throwing `then` is a failure, no handler
 * starts after an abort) and what it does when a hook throws.
 */
import { describe, expect, it, vi } from 'vitest';
import { PreemptedError } from '../errors.js';
import type { HeldLock } from '../locks/lock-manager.js';
import type { HandledResult } from '../outcomes/outcome.js';
import type { Handler, HandlerContext } from '../routing/handler.js';
import { createTestAdapter, deferred, makeEvent } from '../test-support/test-adapter.js';
import { Cancellation } from '../util/cancellation.js';
import { type Delivery, newDelivery } from './delivery.js';
import { invokeHandlers, type RunHooks } from './invoke-handlers.js';

const adapter = createTestAdapter();

function delivery(...handlers: Handler[]): Delivery {
  return newDelivery({
    event: makeEvent(),
    handlers,
    adapter,
    mode: 'deferred',
    scopeKey: 'test:T1:C1',
    slot: undefined,
  });
}

function hooks(overrides: Partial<RunHooks> = {}): RunHooks & { readonly calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    callHandler: undefined,
    threads: undefined,
    observeActions: undefined,
    started: () => calls.push('started'),
    ended: () => calls.push('ended'),
    finished: (_delivery, _extras, result: HandledResult) => {
      calls.push(`finished:${result.outcome}`);
      return result;
    },
    ...overrides,
  };
}

describe('invokeHandlers', () => {
  it('runs sync and async handlers in order, keeps the first value and the first error', async () => {
    const order: string[] = [];
    const first = new Error('first');
    const result = await invokeHandlers(
      delivery(
        () => {
          order.push('a');
        },
        async () => {
          order.push('b');
          return 'answer';
        },
        () => {
          order.push('c');
          throw first;
        },
        async () => {
          order.push('d');
          throw new Error('second');
        },
        () => {
          order.push('e');
          return 'later';
        },
      ),
    );
    expect(order).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(result).toEqual({ outcome: 'failed', error: first });
  });

  it('completes with the first value any handler returned', async () => {
    const result = await invokeHandlers(
      delivery(
        () => undefined,
        () => 'one',
        async () => 'two',
      ),
    );
    expect(result).toEqual({ outcome: 'completed', response: 'one' });
  });

  it('adopts a thenable once, as await does, even when it calls back twice or synchronously', async () => {
    const second = vi.fn();
    const thenable = {
      // biome-ignore lint/suspicious/noThenProperty: a foreign thenable is what this test is about
      then(resolve: (value: unknown) => void, reject: (error: unknown) => void) {
        resolve('from thenable');
        resolve('again');
        reject(new Error('ignored'));
      },
    };
    const result = await invokeHandlers(
      delivery(
        () => thenable as unknown as Promise<string>,
        () => {
          second();
        },
      ),
    );
    expect(second).toHaveBeenCalledTimes(1);
    expect(result).toEqual({ outcome: 'completed', response: 'from thenable' });
  });

  it('counts a thenable whose then throws as a failed handler and runs the next one', async () => {
    const broken = new Error('then threw');
    const next = vi.fn();
    const thenable = {
      // biome-ignore lint/suspicious/noThenProperty: a foreign thenable is what this test is about
      then() {
        throw broken;
      },
    };
    const result = await invokeHandlers(
      delivery(
        () => thenable as unknown as Promise<void>,
        () => {
          next();
        },
      ),
    );
    expect(next).toHaveBeenCalledTimes(1);
    expect(result).toEqual({ outcome: 'failed', error: broken });
  });

  it('starts no handler once the delivery aborted, and ends with the abort outcome', async () => {
    const gate = deferred<void>();
    const later = vi.fn();
    const target = delivery(() => gate.promise, later);
    const run = invokeHandlers(target);
    const reason = new PreemptedError('test:T1:C1', 'a newer event');
    target.controller.abort(reason);
    gate.resolve();
    expect(await run).toEqual({ outcome: 'preempted', error: reason });
    expect(later).not.toHaveBeenCalled();
  });

  it('aborts the handler signal with the delivery and stops following it once the run ended', async () => {
    const target = delivery(async (ctx: HandlerContext) => {
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
    });
    const run = invokeHandlers(target);
    target.controller.abort(new PreemptedError('test:T1:C1', 'newer'));
    expect((await run).outcome).toBe('preempted');
  });

  it('calls started once before the first handler, ended before finished, on every path', async () => {
    const gate = deferred<void>();
    const calls = hooks();
    const run = invokeHandlers(
      delivery(
        () => gate.promise,
        () => {},
      ),
      {},
      calls,
    );
    expect(calls.calls).toEqual(['started']);
    gate.resolve();
    await run;
    expect(calls.calls).toEqual(['started', 'ended', 'finished:completed']);
  });

  it('never calls started when the delivery had aborted before any handler', async () => {
    const calls = hooks();
    const handler = vi.fn();
    const target = delivery(handler);
    target.controller.abort(new PreemptedError('test:T1:C1', 'before'));
    const result = await invokeHandlers(target, {}, calls);
    expect(handler).not.toHaveBeenCalled();
    expect(result.outcome).toBe('preempted');
    expect(calls.calls).toEqual(['ended', 'finished:preempted']);
  });

  it('rejects with what a hook threw, after ending the run', async () => {
    const broken = new Error('started threw');
    const calls = hooks({
      started: () => {
        throw broken;
      },
    });
    const handler = vi.fn();
    await expect(invokeHandlers(delivery(handler), {}, calls)).rejects.toBe(broken);
    expect(handler).not.toHaveBeenCalled();
    expect(calls.calls).toEqual(['ended']);
  });

  it('rejects when finished throws, once the handlers ran', async () => {
    const broken = new Error('finished threw');
    const handler = vi.fn(async () => {});
    const calls = hooks({
      finished: () => {
        throw broken;
      },
    });
    await expect(invokeHandlers(delivery(handler), {}, calls)).rejects.toBe(broken);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(calls.calls).toEqual(['started', 'ended']);
  });

  it("exposes nothing of the run's machinery on the context its handlers see", async () => {
    let seen: HandlerContext | undefined;
    await invokeHandlers(
      delivery((ctx: HandlerContext) => {
        seen = ctx;
      }),
    );
    const members = new Set<string>();
    for (let proto = Object.getPrototypeOf(seen); proto !== Object.prototype; ) {
      for (const name of Object.getOwnPropertyNames(proto)) members.add(name);
      proto = Object.getPrototypeOf(proto);
    }
    members.delete('constructor');
    expect([...members].sort()).toEqual(
      [
        'delete',
        'dm',
        'edit',
        'ephemeral',
        'openForm',
        'post',
        'react',
        'signal',
        'stream',
        'thread',
        'typing',
        'unreact',
      ].sort(),
    );
  });

  it("gives ctx.lock as the lease's key and fence and ctx.batch as [event] unless the strategy gives one", async () => {
    const reads: unknown[][] = [];
    const read = (ctx: HandlerContext) => {
      reads.push([ctx.lock, ctx.lock, ctx.batch, ctx.batch, ctx.event, Object.keys(ctx)]);
    };
    await invokeHandlers(delivery(read));
    const lock = { key: 'test:T1:C1', fence: 7, cancellation: new Cancellation() };
    const members = [makeEvent({ id: 'a' }), makeEvent({ id: 'b' })];
    await invokeHandlers(delivery(read), { lock: lock as unknown as HeldLock, batch: members });

    const [plain, locked] = reads;
    expect(plain![0]).toBeUndefined();
    expect(plain![2]).toEqual([plain![4]]);
    expect(plain![3]).toBe(plain![2]);
    expect(locked![0]).toEqual({ key: 'test:T1:C1', fence: 7 });
    expect(locked![1]).toBe(locked![0]);
    expect(locked![2]).toBe(members);
    // Own properties: a handler that spreads its context keeps them.
    expect(plain![5]).toEqual(expect.arrayContaining(['event', 'lock', 'skipped', 'batch']));
  });

  it('calls each handler through callHandler when observers wrap handlers', async () => {
    const wrapped: unknown[] = [];
    const calls = hooks({
      callHandler: (handler, ctx) => {
        wrapped.push(ctx.event.id);
        return handler(ctx);
      },
    });
    const result = await invokeHandlers(
      delivery(async () => 'wrapped'),
      {},
      calls,
    );
    expect(result).toEqual({ outcome: 'completed', response: 'wrapped' });
    expect(wrapped).toHaveLength(1);
  });
});
