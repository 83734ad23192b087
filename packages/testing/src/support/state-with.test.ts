import type { Lease, State } from '@rt/core';
import {
  hasFencedThreadState,
  hasLockWakeups,
  hasMultiKeyMark,
  hasSubscriptions,
} from '@rt/core/state';
import { describe, expect, it } from 'vitest';
import { deferred } from './deferred.js';
import { type StateCapability, stateWith, unreachableState } from './state-with.js';

/** A State that records which operation reached it. */
function recordingState(): State & { calls: string[] } {
  const calls: string[] = [];
  const lease: Lease = { key: 'k', token: 't', fence: 1, expiresAt: 0 };
  return {
    calls,
    markEvent: async (key) => Boolean(calls.push(`mark ${key}`)),
    acquireLock: async (key) => {
      calls.push(`acquire ${key}`);
      return { ...lease, key };
    },
    renewLock: async (held) => Boolean(calls.push(`renew ${held.key}`)),
    releaseLock: async (held) => Boolean(calls.push(`release ${held.key}`)),
    close: async () => void calls.push('close'),
  };
}

/** A recording State offering every optional capability. */
function capableState(): ReturnType<typeof recordingState> & Record<string, unknown> {
  const base = recordingState();
  const { calls } = base;
  return {
    ...base,
    waitForRelease: async (key: string) => void calls.push(`wait ${key}`),
    markEvents: async (keys: readonly string[]) => Boolean(calls.push(`marks ${keys.join(' ')}`)),
    subscribe: async (thread: string) => void calls.push(`subscribe ${thread}`),
    unsubscribe: async (thread: string) => Boolean(calls.push(`unsubscribe ${thread}`)),
    isSubscribed: async (thread: string) => Boolean(calls.push(`subscribed? ${thread}`)),
    touchSubscription: async (thread: string) => Boolean(calls.push(`touch ${thread}`)),
    readThreadState: async (thread: string) => {
      calls.push(`read ${thread}`);
      return null;
    },
    writeThreadState: async (thread: string, value: string, fence: number) => {
      calls.push(`write ${thread} ${value} ${fence}`);
      return { ok: true, version: 1 };
    },
  };
}

const lease: Lease = { key: 'k', token: 't', fence: 1, expiresAt: 0 };

describe('stateWith', () => {
  it('passes every operation it does not override to the inner State', async () => {
    const inner = recordingState();
    const state = stateWith(inner, {});
    await state.markEvent('e', 1000);
    await state.acquireLock('k', 1000);
    await state.renewLock(lease, 1000);
    await state.releaseLock(lease);
    await state.close();
    expect(inner.calls).toEqual(['mark e', 'acquire k', 'renew k', 'release k', 'close']);
  });

  it('keeps every optional capability of the inner State and delegates to it', async () => {
    const inner = capableState();
    const state = stateWith(inner, {});
    if (!hasLockWakeups(state) || !hasMultiKeyMark(state)) throw new Error('capability lost');
    if (!hasSubscriptions(state) || !hasFencedThreadState(state))
      throw new Error('capability lost');
    await state.waitForRelease('k', 1000, new AbortController().signal);
    await state.markEvents(['a', 'b'], 1000);
    await state.subscribe('t', 1000);
    await state.touchSubscription('t');
    await state.isSubscribed('t');
    await state.unsubscribe('t');
    await state.readThreadState('t');
    await state.writeThreadState('t', 'v', 3, 1000);
    expect(inner.calls).toEqual([
      'wait k',
      'marks a b',
      'subscribe t',
      'touch t',
      'subscribed? t',
      'unsubscribe t',
      'read t',
      'write t v 3',
    ]);
  });

  it('offers no capability the inner State lacks', () => {
    const state = stateWith(recordingState(), {});
    expect(hasLockWakeups(state)).toBe(false);
    expect(hasMultiKeyMark(state)).toBe(false);
    expect(hasSubscriptions(state)).toBe(false);
    expect(hasFencedThreadState(state)).toBe(false);
  });

  it('hides the capabilities named in options.without, and refuses an unknown name', () => {
    const state = stateWith(capableState(), {}, { without: ['MultiKeyMark', 'Subscriptions'] });
    expect(hasMultiKeyMark(state)).toBe(false);
    expect(hasSubscriptions(state)).toBe(false);
    expect(hasLockWakeups(state)).toBe(true);
    expect(hasFencedThreadState(state)).toBe(true);
    const bad = ['Telepathy'] as unknown as StateCapability[];
    expect(() => stateWith(capableState(), {}, { without: bad })).toThrow(TypeError);
    expect(() => stateWith(capableState(), {}, { without: bad })).toThrow(/options\.without/);
  });

  it('drops markEvents when only markEvent is overridden, so no mark goes around the fault', async () => {
    const state = stateWith(capableState(), {
      markEvent: async () => {
        throw new Error('mark failed');
      },
    });
    expect(hasMultiKeyMark(state)).toBe(false);
    expect(hasLockWakeups(state)).toBe(true);
  });

  it('runs a markEvents override, adding the capability', async () => {
    const inner = recordingState();
    const state = stateWith(inner, {
      markEvents: async () => {
        throw new Error('marks failed');
      },
    });
    if (!hasMultiKeyMark(state)) throw new Error('override not offered');
    await expect(state.markEvents(['a'], 1000)).rejects.toThrow('marks failed');
    expect(inner.calls).toEqual([]);
  });

  it('runs an override instead, which may fail or delegate to the inner State it receives', async () => {
    const inner = recordingState();
    const state = stateWith(inner, (real) => ({
      markEvent: async (key, ttlMs) => {
        if (key === 'bad') throw new Error('mark failed');
        return real.markEvent(key, ttlMs);
      },
    }));
    await expect(state.markEvent('bad', 1000)).rejects.toThrow('mark failed');
    await expect(state.markEvent('good', 1000)).resolves.toBe(true);
    expect(inner.calls).toEqual(['mark good']);
  });

  it('holds an operation at a gate until the test releases it', async () => {
    const inner = recordingState();
    const gate = deferred();
    const state = stateWith(inner, {
      releaseLock: async (held) => {
        await gate.promise;
        return inner.releaseLock(held);
      },
    });
    const releasing = state.releaseLock(lease);
    await new Promise((resolve) => setImmediate(resolve));
    expect(inner.calls).toEqual([]);
    gate.resolve();
    await expect(releasing).resolves.toBe(true);
    expect(inner.calls).toEqual(['release k']);
  });
});

describe('unreachableState', () => {
  it('rejects every operation and closes quietly', async () => {
    const state = unreachableState('down');
    await expect(state.markEvent('e', 1000)).rejects.toThrow('down');
    await expect(state.acquireLock('k', 1000)).rejects.toThrow('down');
    await expect(state.renewLock(lease, 1000)).rejects.toThrow('down');
    await expect(state.releaseLock(lease)).rejects.toThrow('down');
    await expect(state.close()).resolves.toBeUndefined();
  });
});
