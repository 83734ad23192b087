import { getEventListeners } from 'node:events';
import { deferred } from '@rt/testing';
import { describe, expect, it } from 'vitest';
import { abortable } from './abortable.js';

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
