import { describe, expect, it } from 'vitest';
import { TestState } from '../test-support/test-state.js';
import { createRuntime } from './create-runtime.js';
import { DEFAULT_CONCURRENCY, DEFAULT_RUNTIME_OPTIONS } from './options.js';

const state = new TestState();

describe('runtime options', () => {
  it('exposes frozen defaults with a bounded deferred configuration', () => {
    expect(Object.isFrozen(DEFAULT_RUNTIME_OPTIONS)).toBe(true);
    expect(DEFAULT_RUNTIME_OPTIONS.maxDetached).toBe(1024);
    expect(DEFAULT_RUNTIME_OPTIONS.maxDetachedPerTenant).toBe(0);
    expect(DEFAULT_RUNTIME_OPTIONS.dispatchMode).toBe('deferred');
    const runtime = createRuntime({ state });
    expect(runtime.options.concurrency.strategy).toBe('queue');
    expect(DEFAULT_RUNTIME_OPTIONS.concurrency).toBe('queue');
    expect(DEFAULT_CONCURRENCY.strategy).toBe('queue');
    expect(runtime.options.dedupeTtlMs).toBe(3_600_000);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '10'])(
    'rejects maxDetached %s with a RangeError naming the option',
    (value) => {
      expect(() => createRuntime({ state, maxDetached: value as number })).toThrow(RangeError);
      expect(() => createRuntime({ state, maxDetached: value as number })).toThrow(/maxDetached/);
    },
  );

  it.each([-1, 0.5, Number.NaN])('rejects maxDetachedPerTenant %s', (value) => {
    expect(() => createRuntime({ state, maxDetachedPerTenant: value })).toThrow(
      /maxDetachedPerTenant must be an integer >= 0/,
    );
  });

  it('accepts maxDetachedPerTenant 0 as disabled', () => {
    expect(createRuntime({ state, maxDetachedPerTenant: 0 }).options.maxDetachedPerTenant).toBe(0);
  });

  it.each(['detachTimeoutMs', 'dedupeTtlMs', 'lockTtlMs', 'shutdownGraceMs'] as const)(
    'rejects a zero, negative, fractional, NaN or oversized %s',
    (name) => {
      for (const value of [0, -5, 1500.5, Number.NaN, 2 ** 31]) {
        expect(() => createRuntime({ state, [name]: value })).toThrow(new RegExp(name));
      }
    },
  );

  it('rejects unknown strategies and bad strategy tuning', () => {
    expect(() => createRuntime({ state, concurrency: 'fifo' as 'drop' })).toThrow(TypeError);
    expect(() =>
      createRuntime({ state, concurrency: { strategy: 'concurrent', maxConcurrent: 0 } }),
    ).toThrow(/concurrency.maxConcurrent/);
    expect(() =>
      createRuntime({ state, concurrency: { strategy: 'debounce', debounceMs: -1 } }),
    ).toThrow(/concurrency.debounceMs/);
    expect(() =>
      createRuntime({ state, concurrency: { strategy: 'burst', maxBatch: 2.5 } }),
    ).toThrow(/concurrency.maxBatch/);
    expect(() =>
      createRuntime({
        state,
        concurrency: { strategy: 'queue', lockPollInitialMs: 100, lockPollMaxMs: 10 },
      }),
    ).toThrow(/lockPollMaxMs/);
  });

  it('rejects a missing or incomplete state and bad dispatch modes', () => {
    expect(() => createRuntime({} as never)).toThrow(/State contract/);
    expect(() => createRuntime({ state: { markEvent() {} } as never })).toThrow(
      /missing acquireLock/,
    );
    expect(() => createRuntime({ state, dispatchMode: 'later' as 'sync' })).toThrow(/dispatchMode/);
    expect(() =>
      createRuntime({ state, dispatchModes: { slack: { shapes: { x: 'now' as 'sync' } } } }),
    ).toThrow(/dispatchModes.slack.shapes.x/);
    expect(() => createRuntime({ state, lockScope: 'guild' as 'thread' })).toThrow(/lockScope/);
  });
});
