/**
 * Model 1's S1 ("when shutdown resolves, no release owed by a finished delivery is still to come")
 * against the runtime: the counterexample Spin gives for the mutation
 * `lease-shutdown-before-owed-release` (mutations/models.txt) is a delivery whose outcome is
 * recorded before its release starts, with shutdown resolving in between. Here shutdown begins
 * while the handler runs, the handler returns during the grace period (so its outcome is due at
 * once), the State's release is held open, and shutdown must not resolve until it has settled:
 * for every locking strategy. Depends on the fix of that defect (issue 20 §1, first defect).
 */
import { createRuntime, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter, type Deferred, deferred, stateWith } from '@rt/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const STRATEGIES = ['queue', 'drop', 'burst', 'debounce'] as const;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('S1: shutdown waits for every release owed by a finished delivery', () => {
  it.each(STRATEGIES)(
    '%s: shutdown begun while the handler runs resolves only after its owed release',
    async (strategy) => {
      const memory = createMemoryState({ now: () => Date.now() });
      const releases: Deferred<void>[] = [];
      const state = stateWith(memory, (inner) => ({
        releaseLock: async (lease) => {
          const gate = deferred<void>();
          releases.push(gate);
          await gate.promise;
          return inner.releaseLock(lease);
        },
      }));
      let resolved = false;
      const adapter = createTestAdapter({ name: 'model' });
      const runtime: Runtime = createRuntime({
        adapters: [adapter],
        state,
        dispatchMode: 'deferred',
        concurrency: { strategy, burstWindowMs: 10, debounceMs: 10 },
      });
      const started = deferred<void>();
      const finish = deferred<void>();
      runtime.onMessage(async () => {
        started.resolve();
        await finish.promise;
      });
      await adapter.send({
        id: 'ev-1',
        tenant: 'T0',
        channel: 'C1',
        thread: 'scope-0',
        text: 'd0',
      });
      await vi.advanceTimersByTimeAsync(20);
      await started.promise;
      // Shutdown begins while the handler runs; the handler returns during the grace period.
      const shutdown = runtime.shutdown({ graceMs: 1_000, abandonAfterMs: 1_000 });
      shutdown.then(() => {
        resolved = true;
      });
      await vi.advanceTimersByTimeAsync(10);
      finish.resolve();
      await vi.advanceTimersByTimeAsync(10);
      expect(releases.length).toBe(1);
      // The release is still in flight well inside the lock-I/O budget: shutdown must still wait.
      await vi.advanceTimersByTimeAsync(100);
      expect(resolved).toBe(false);
      releases[0]?.resolve();
      await vi.advanceTimersByTimeAsync(0);
      await shutdown;
      expect(resolved).toBe(true);
      await memory.close();
    },
  );
});
