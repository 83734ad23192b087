import type { Lease, State } from '@rt/core';
import { describe, expect, it } from 'vitest';
import { deferred } from './deferred.js';
import { stateWith, unreachableState } from './state-with.js';

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
