import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred } from '../test-support/test-adapter.js';
import { Cancellation } from './cancellation.js';
import { abortable, anySignal, delay, timeoutSignal } from './signals.js';

describe('abortable', () => {
  it('resolves with the promise and removes its abort listener', async () => {
    const controller = new AbortController();
    await expect(abortable(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the promise and removes its abort listener', async () => {
    const controller = new AbortController();
    const failure = new Error('resolver failed');
    await expect(abortable(Promise.reject(failure), controller.signal)).rejects.toBe(failure);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the signal reason when it aborts first, removes its listener and swallows the late rejection', async () => {
    const controller = new AbortController();
    const work = deferred<string>();
    const raced = abortable(work.promise, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    const reason = new Error('budget spent');
    controller.abort(reason);
    await expect(raced).rejects.toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const unhandled: unknown[] = [];
    const onUnhandled = (error: unknown) => unhandled.push(error);
    process.on('unhandledRejection', onUnhandled);
    work.reject(new Error('late'));
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });

  it('rejects at once with an already aborted signal, adding no listener', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already'));
    const work = deferred<string>();
    await expect(abortable(work.promise, controller.signal)).rejects.toThrow('already');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    work.resolve('late');
  });
});

describe('anySignal', () => {
  it('aborts with the reason of the first source to abort and then holds no listener on any source', () => {
    const a = new AbortController();
    const b = new AbortController();
    const any = anySignal([a.signal, undefined, b.signal]);
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(1);
    const reason = new Error('b first');
    b.abort(reason);
    expect(any.signal.aborted).toBe(true);
    expect(any.signal.reason).toBe(reason);
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(b.signal, 'abort')).toHaveLength(0);
    any.dispose();
  });

  it('removes its listeners from every source on dispose, and never aborts afterwards', () => {
    const a = new AbortController();
    const b = new AbortController();
    const any = anySignal([a.signal, b.signal]);
    any.dispose();
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(b.signal, 'abort')).toHaveLength(0);
    a.abort(new Error('late'));
    expect(any.signal.aborted).toBe(false);
  });

  it('is aborted at once by an already aborted source, adding no listener to the others', () => {
    const live = new AbortController();
    const gone = new AbortController();
    gone.abort(new Error('gone'));
    const any = anySignal([live.signal, gone.signal]);
    expect(any.signal.reason).toEqual(new Error('gone'));
    expect(getEventListeners(live.signal, 'abort')).toHaveLength(0);
  });

  it('follows a lazy Cancellation like a platform signal', () => {
    const cancel = new Cancellation();
    const any = anySignal([cancel]);
    expect(cancel.listenerCount).toBe(1);
    cancel.abort(new Error('cancelled'));
    expect(any.signal.reason).toEqual(new Error('cancelled'));
    expect(cancel.listenerCount).toBe(0);
  });

  it('never aborts without sources', () => {
    const any = anySignal([undefined]);
    expect(any.signal.aborted).toBe(false);
    any.dispose();
  });
});

describe('delay and timeoutSignal', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves a delay after its time and removes its listener', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    let done = false;
    const waiting = delay(100, controller.signal).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects a delay with the signal reason and clears its timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const waiting = delay(100, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborts a timeout signal with a TimeoutError carrying the message, unless cleared', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fired = timeoutSignal(50, 'too slow');
    const cleared = timeoutSignal(50);
    cleared.clear();
    await vi.advanceTimersByTimeAsync(50);
    expect(fired.signal.reason).toMatchObject({ name: 'TimeoutError', message: 'too slow' });
    expect(cleared.signal.aborted).toBe(false);
  });
});
