import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Cancellation } from './cancellation.js';
import { abortable, delay } from './signals.js';

describe('Cancellation', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts once, calling its listeners with the reason in order, and ignores later aborts', () => {
    const cancel = new Cancellation();
    const calls: unknown[] = [];
    cancel.onAbort((reason) => calls.push(['a', reason]));
    cancel.onAbort((reason) => calls.push(['b', reason]));
    cancel.abort('first');
    cancel.abort('second');
    expect(cancel.aborted).toBe(true);
    expect(cancel.reason).toBe('first');
    expect(calls).toEqual([
      ['a', 'first'],
      ['b', 'first'],
    ]);
  });

  it('aborts with an AbortError DOMException when given no reason', () => {
    const cancel = new Cancellation();
    cancel.abort();
    expect(cancel.reason).toMatchObject({ name: 'AbortError' });
  });

  it('never calls a listener that was removed', () => {
    const cancel = new Cancellation();
    const listener = vi.fn();
    const remove = cancel.onAbort(listener);
    remove();
    cancel.abort('x');
    expect(listener).not.toHaveBeenCalled();
  });

  it('removes any listener in constant time, keeping the order of the others', () => {
    const cancel = new Cancellation();
    const calls: string[] = [];
    const removers = ['a', 'b', 'c', 'd'].map((name) => cancel.onAbort(() => calls.push(name)));
    removers[1]!();
    removers[3]!();
    removers[3]!();
    expect(cancel.listenerCount).toBe(2);
    cancel.abort('x');
    expect(calls).toEqual(['a', 'c']);
    expect(cancel.listenerCount).toBe(0);
    removers[0]!();
    expect(cancel.listenerCount).toBe(0);
  });

  it('builds its AbortSignal only on first read, then mirrors the abort', () => {
    const early = new Cancellation();
    const signal = early.signal;
    expect(early.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    early.abort('gone');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('gone');
    const late = new Cancellation();
    late.abort('already');
    expect(late.signal.reason).toBe('already');
  });

  it('follows cancellations and signals, and detaches from all of them', () => {
    const parent = new Cancellation();
    const controller = new AbortController();
    const child = new Cancellation();
    const detach = child.follow([parent, undefined, controller.signal]);
    controller.abort('from the signal');
    expect(child.reason).toBe('from the signal');
    const other = new Cancellation();
    const detachOther = other.follow([parent]);
    expect(parent.listenerCount).toBe(2);
    detachOther();
    expect(parent.listenerCount).toBe(1);
    // The first follower is held inline on `parent`; its detacher removes it too.
    detach();
    expect(parent.listenerCount).toBe(0);
    parent.abort('late');
    expect(other.aborted).toBe(false);
  });

  it('aborts at once when following a source that already aborted', () => {
    const parent = new Cancellation();
    parent.abort('done');
    const child = new Cancellation();
    child.follow([parent]);
    expect(child.reason).toBe('done');
  });

  it('throws its reason from throwIfAborted once aborted', () => {
    const cancel = new Cancellation();
    expect(() => cancel.throwIfAborted()).not.toThrow();
    cancel.abort(new Error('stop'));
    expect(() => cancel.throwIfAborted()).toThrow('stop');
  });
});

describe('abortable and delay', () => {
  it('rejects with the reason when the cancellation aborts first, and swallows the late rejection', async () => {
    const cancel = new Cancellation();
    let fail!: (error: unknown) => void;
    const work = new Promise((_, reject) => {
      fail = reject;
    });
    const waiting = abortable(work, cancel);
    cancel.abort('stop');
    await expect(waiting).rejects.toBe('stop');
    fail(new Error('late'));
  });

  it('settles like the promise otherwise, removing its listener', async () => {
    const cancel = new Cancellation();
    await expect(abortable(Promise.resolve(7), cancel)).resolves.toBe(7);
    const signal = cancel.signal;
    cancel.abort('after');
    expect(signal.aborted).toBe(true);
  });

  it('ends the wait on either of two sources, detaching from both', async () => {
    const own = new Cancellation();
    const shutdown = new Cancellation();
    const waiting = abortable(new Promise(() => {}), own, shutdown);
    expect(shutdown.listenerCount).toBe(1);
    shutdown.abort('shutdown');
    await expect(waiting).rejects.toBe('shutdown');
    expect(own.listenerCount).toBe(0);
    await expect(abortable(Promise.resolve(1), own, new Cancellation())).resolves.toBe(1);
    expect(own.listenerCount).toBe(0);
  });

  it('delays, or rejects at the abort with the timer cleared', async () => {
    vi.useFakeTimers();
    const cancel = new Cancellation();
    const waited = delay(100, cancel);
    await vi.advanceTimersByTimeAsync(100);
    await expect(waited).resolves.toBeUndefined();
    const aborted = delay(100, cancel);
    cancel.abort('stop');
    await expect(aborted).rejects.toBe('stop');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('watch tells a handler object the reason once, and unwatch removes it from either kind of source', () => {
    const reasons: unknown[] = [];
    const handler = { handleAbort: (reason: unknown) => reasons.push(reason) };
    const source = new Cancellation();
    const kept = Cancellation.watch(source, handler);
    const removed = Cancellation.watch(source, handler);
    expect(source.listenerCount).toBe(2);
    Cancellation.unwatch(removed, handler);
    Cancellation.unwatch(removed, handler);
    expect(source.listenerCount).toBe(1);
    source.abort('gone');
    expect(reasons).toEqual(['gone']);
    Cancellation.unwatch(kept, handler);

    const platform = new AbortController();
    const watch = Cancellation.watch(platform.signal, handler);
    expect(getEventListeners(platform.signal, 'abort')).toHaveLength(1);
    Cancellation.unwatch(watch, handler);
    expect(getEventListeners(platform.signal, 'abort')).toHaveLength(0);
    platform.abort('late');
    expect(reasons).toEqual(['gone']);
  });

  it('watch on a source that already aborted registers nothing and never calls the handler', () => {
    const handleAbort = vi.fn();
    const source = new Cancellation();
    source.abort('before');
    const handler = { handleAbort };
    Cancellation.unwatch(Cancellation.watch(source, handler), handler);
    expect(handleAbort).not.toHaveBeenCalled();
  });

  it('a cancellation given to watch follows that source: the same reason, once, until unwatched', () => {
    const source = new Cancellation();
    const follower = new Cancellation();
    const watch = Cancellation.watch(source, follower);
    expect(source.listenerCount).toBe(1);
    source.abort('first');
    expect(follower.reason).toBe('first');
    expect(source.listenerCount).toBe(0);

    const platform = new AbortController();
    const signalFollower = new Cancellation();
    Cancellation.watch(platform.signal, signalFollower);
    platform.abort('from the platform');
    expect(signalFollower.reason).toBe('from the platform');

    const other = new Cancellation();
    const detached = new Cancellation();
    Cancellation.unwatch(Cancellation.watch(other, detached), detached);
    expect(other.listenerCount).toBe(0);
    other.abort('ignored');
    expect(detached.aborted).toBe(false);
    Cancellation.unwatch(watch, follower);
  });

  it('keeps registration order whether a follower is held inline or in the list', () => {
    const source = new Cancellation();
    const heard: string[] = [];
    const named = (name: string) => ({ handleAbort: () => heard.push(name) });
    const first = named('first');
    const second = named('second');
    const third = named('third');
    const fourth = named('fourth');
    // The first is held inline (the source had nothing registered); the others are list nodes.
    const firstWatch = Cancellation.watch(source, first);
    Cancellation.watch(source, second);
    source.onAbort(() => heard.push('listener'));
    // Unwatching the inline handle with another handler removes nothing.
    Cancellation.unwatch(firstWatch, second);
    expect(source.listenerCount).toBe(3);
    Cancellation.unwatch(firstWatch, first);
    expect(source.listenerCount).toBe(2);
    // Registered after the list's entries, so heard after them, though the inline place is free.
    const thirdWatch = Cancellation.watch(source, third);
    expect(source.listenerCount).toBe(3);
    source.abort('stop');
    expect(heard).toEqual(['second', 'listener', 'third']);
    expect(source.listenerCount).toBe(0);
    Cancellation.unwatch(thirdWatch, third);

    // Once the list is empty again, the next follower is held inline and heard first.
    const again = new Cancellation();
    heard.length = 0;
    const inline = Cancellation.watch(again, first);
    Cancellation.unwatch(inline, first);
    Cancellation.watch(again, fourth);
    Cancellation.watch(again, second);
    again.abort('stop');
    expect(heard).toEqual(['fourth', 'second']);
  });
});
