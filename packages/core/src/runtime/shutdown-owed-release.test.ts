import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreateRuntimeOptions } from '../runtime/options.js';
import type { Lease } from '../state/state.js';
import { setup } from '../test-support/setup.js';
import { deferred, flush, outcomeNow, settledOf } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';

/** A TestState whose `releaseLock` takes `releaseMs` (fake timers), or never answers (`Infinity`). */
class SlowReleaseState extends TestState {
  releaseMs = 200;
  releasesStarted = 0;

  override async releaseLock(lease: Lease): Promise<boolean> {
    this.releasesStarted += 1;
    if (this.releaseMs === Number.POSITIVE_INFINITY) return new Promise<boolean>(() => {});
    await new Promise((resolve) => setTimeout(resolve, this.releaseMs));
    return super.releaseLock(lease);
  }
}

/** A promise's state by now, without waiting for timers. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await flush();
  return settled;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Every locking strategy, with the ms its first handler starts after the delivery arrives. */
const LOCKING: readonly {
  name: string;
  concurrency: CreateRuntimeOptions['concurrency'];
  startsAfterMs: number;
}[] = [
  { name: 'drop', concurrency: 'drop', startsAfterMs: 0 },
  { name: 'queue', concurrency: 'queue', startsAfterMs: 0 },
  { name: 'debounce', concurrency: { strategy: 'debounce', debounceMs: 50 }, startsAfterMs: 50 },
  { name: 'burst', concurrency: { strategy: 'burst', burstWindowMs: 50 }, startsAfterMs: 50 },
];

describe('shutdown waits for the lock releases finished deliveries owe', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  for (const { name, concurrency, startsAfterMs } of LOCKING) {
    it(`${name}: stays pending until the release of a handler that returned during the grace period settled`, async () => {
      const state = new SlowReleaseState();
      const { runtime, adapter } = setup({ state, concurrency });
      const started = deferred();
      runtime.onMessage(async () => {
        started.resolve();
        await sleep(20);
      });
      const accepted = await adapter.send({ thread: 't' });
      await vi.advanceTimersByTimeAsync(startsAfterMs);
      await started.promise;
      const stopping = runtime.shutdown({ graceMs: 1_000, abandonAfterMs: 1_000 });
      await vi.advanceTimersByTimeAsync(20); // the handler returns; its release starts
      expect(state.releasesStarted).toBe(1);
      expect(await outcomeNow(accepted)).toBe('pending'); // deferred: settled after the release
      await vi.advanceTimersByTimeAsync(150);
      expect(await isSettled(stopping)).toBe(false);
      expect(state.locks.size).toBe(1);
      await vi.advanceTimersByTimeAsync(50); // the release settles 200 ms after it started
      expect(await isSettled(stopping)).toBe(true);
      expect(state.locks.size).toBe(0);
      expect((await settledOf(accepted)).outcome).toBe('completed');
      expect(runtime.stats().outcomes).toMatchObject({ completed: 1, shutdown: 0 });
    });

    it(`${name}: bounds a release that never settles by the lock-I/O budget`, async () => {
      const state = new SlowReleaseState();
      state.releaseMs = Number.POSITIVE_INFINITY;
      const { runtime, adapter, ofType } = setup({ state, concurrency });
      const started = deferred();
      runtime.onMessage(async () => {
        started.resolve();
        await sleep(20);
      });
      await adapter.send({ thread: 't' });
      await vi.advanceTimersByTimeAsync(startsAfterMs);
      await started.promise;
      const stopping = runtime.shutdown({ graceMs: 1_000, abandonAfterMs: 300 });
      await vi.advanceTimersByTimeAsync(20);
      expect(state.releasesStarted).toBe(1);
      await vi.advanceTimersByTimeAsync(299);
      expect(await isSettled(stopping)).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await isSettled(stopping)).toBe(true);
      expect(ofType('dispatch_finished')).toMatchObject([{ outcome: 'completed' }]);
    });
  }

  it('sync: stays pending until the release of a handler that returned during the grace period settled', async () => {
    const state = new SlowReleaseState();
    const { runtime, adapter } = setup(
      { state, concurrency: 'queue' },
      { shapeModes: { message: 'sync' } },
    );
    const started = deferred();
    runtime.onMessage(async () => {
      started.resolve();
      await sleep(20);
      return 'answer';
    });
    const answered = adapter.send({ thread: 't' });
    await started.promise;
    const stopping = runtime.shutdown({ graceMs: 1_000, abandonAfterMs: 1_000 });
    await vi.advanceTimersByTimeAsync(20);
    expect(state.releasesStarted).toBe(1);
    await vi.advanceTimersByTimeAsync(150);
    expect(await isSettled(stopping)).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(await isSettled(stopping)).toBe(true);
    expect(await answered).toMatchObject({ status: 'completed', outcome: 'completed' });
  });
});

describe('drop: a lease granted just before shutdown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A TestState whose acquireLock answers when the test says so. */
  class GatedAcquireState extends SlowReleaseState {
    readonly grants: (() => void)[] = [];

    override async acquireLock(key: string, ttlMs: number): Promise<Lease | null> {
      const lease = await super.acquireLock(key, ttlMs);
      const gate = deferred();
      this.grants.push(gate.resolve);
      await gate.promise;
      return lease;
    }
  }

  // The gap between the State's answer and the handler's start is a few microtask turns; sweep
  // shutdown across it (and past it) so the test hits it whatever the exact count is.
  for (let turns = 0; turns <= 12; turns += 1) {
    it(`ends shutdown at once, releases, and is never called abandoned (shutdown ${turns} turns after the grant)`, async () => {
      const state = new GatedAcquireState();
      state.releaseMs = Number.POSITIVE_INFINITY;
      const { runtime, adapter, ofType } = setup({ state, concurrency: 'drop' });
      let ran = 0;
      runtime.onMessage(() => {
        ran += 1;
      });
      await adapter.send({ thread: 't' });
      await flush();
      expect(state.grants).toHaveLength(1);
      state.grants[0]!();
      for (let i = 0; i < turns; i += 1) await Promise.resolve();
      const stopping = runtime.shutdown({ graceMs: 100, abandonAfterMs: 1_000 });
      await flush();
      // Its outcome is recorded at once (the settled promise follows its release, which never ends).
      expect(ofType('dispatch_finished').map((o) => o.outcome)).toEqual([
        ran === 0 ? 'shutdown' : 'completed',
      ]);
      expect(state.releasesStarted).toBe(1);
      // The release never answers: the lock-I/O budget (1000 ms from the last outcome) ends it.
      await vi.advanceTimersByTimeAsync(999);
      expect(await isSettled(stopping)).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await isSettled(stopping)).toBe(true);
      const finished = ofType('dispatch_finished');
      expect(finished).toHaveLength(1);
      expect(String((finished[0]?.error as Error | undefined)?.message)).not.toMatch(/abandon/);
      if (ran === 0) expect(finished[0]?.handlerStartedAt).toBeUndefined();
    });
  }
});
