import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryState } from '@rt/state-memory';
import { createRedisState, keyLayout } from '@rt/state-redis';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
// The State package's own test helper (a private redis-server on loopback); not part of its build.
import {
  type PrivateRedisServer,
  startRedisServer,
} from '../../packages/state-redis/src/test-support/redis-server.js';
import { type LeaseTarget, replayLeaseTrace, TraceMismatchError } from './lease-replay.js';
import { coverageOf, generateLeaseTrace, type LeaseStep, parseJsonLines } from './lease-trace.js';
import { MODELS_DIR } from './spin.js';

const committed = readdirSync(join(MODELS_DIR, 'traces'))
  .filter((file) => file.startsWith('lease-'))
  .sort()
  .map((file) => ({
    name: file,
    steps: parseJsonLines<LeaseStep>(readFileSync(join(MODELS_DIR, 'traces', file), 'utf8')),
  }));

/** Fresh traces from Spin on every run (the seed is in the test name, so a failure replays). */
const freshSeed = 1000 + Math.floor(Math.random() * 1_000_000);
const fresh = [0, 1, 2, 3].map((offset) => ({
  name: `fresh seed ${freshSeed + offset}`,
  steps: generateLeaseTrace(freshSeed + offset),
}));
const traces = [...committed, ...fresh];
const operations = (steps: readonly LeaseStep[]) =>
  steps.filter((step) => step.op === 'acquire' || step.op === 'renew' || step.op === 'release')
    .length;

function memoryTarget(): LeaseTarget {
  // The memory State reads the faked Date.now(): its own expiry follows the model's clock.
  const state = createMemoryState({ now: () => Date.now() });
  return {
    name: 'state-memory',
    state,
    realTtlMs: (ttlMs) => ttlMs,
    fenceBase: 0,
    checkTtl: async () => undefined,
    tick: async () => undefined,
    lose: async (_key, lease) => {
      await state.releaseLock(lease);
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('model 1 traces', () => {
  it('commits traces covering a stale release against a live successor, renewals, key loss, refused renewals and lost wake-ups', () => {
    const total = committed.map((trace) => coverageOf(trace.steps));
    const sum = (pick: (c: (typeof total)[number]) => number) =>
      total.reduce((acc, c) => acc + pick(c), 0);
    expect(sum((c) => c.staleReleaseAgainstSuccessor)).toBeGreaterThan(0);
    expect(sum((c) => c.renewals)).toBeGreaterThanOrEqual(10);
    expect(sum((c) => c.keyLosses)).toBeGreaterThan(0);
    expect(sum((c) => c.refusedRenewals)).toBeGreaterThan(0);
    expect(sum((c) => c.lostWakeups)).toBeGreaterThan(0);
    expect(sum((c) => c.takeovers)).toBeGreaterThan(0);
  });
});

describe('model 1 traces replayed through LockManager on @rt/state-memory', () => {
  it.each(traces)('does what the model did at every step of $name', async ({ name, steps }) => {
    const target = memoryTarget();
    const report = await replayLeaseTrace(steps, target, `trace:${name}`);
    expect(report.stateCalls).toBe(operations(steps));
    await target.state.close();
  });

  it('reports the first step where the code disagrees with the model', async () => {
    // The model's lane 0 renews at time 1; a trace that claims the code aborts at time 1 instead.
    const steps: LeaseStep[] = [
      { op: 'start', inst: 0, now: 0 },
      { op: 'acqreq', inst: 0, now: 0, why: 1 },
      { op: 'acquire', inst: 0, tok: 1, now: 0, ttl: 3, ok: 1, fence: 1 },
      { op: 'acqans', inst: 0, now: 0, ok: 1 },
      { op: 'tick', now: 1 },
      { op: 'abort', inst: 0, now: 1, why: 1 },
      { op: 'tick', now: 2 },
    ];
    const target = memoryTarget();
    await expect(replayLeaseTrace(steps, target, 'k')).rejects.toThrow(TraceMismatchError);
    await target.state.close();
  });
});

describe('model 1 traces replayed through LockManager on @rt/state-redis (real redis-server)', () => {
  let server: PrivateRedisServer;
  let admin: Redis;
  const prefix = 'rt-models:';
  const layout = keyLayout(prefix);
  /** Real milliseconds per model unit in Redis: long enough that Redis never expires on its own. */
  const REDIS_UNIT_MS = 10_000;
  /** Seeded fence: above Redis's microsecond time floor, so fences must be exactly base + n. */
  const FENCE_BASE = 4_000_000_000_000_000;

  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url, { lazyConnect: true });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.quit();
    await server?.dispose();
  });

  it.each(traces)('does what the model did at every step of $name', async ({ name, steps }) => {
    vi.useRealTimers();
    const state = createRedisState({ url: server.url, prefix });
    const key = `trace:${name}:${Date.now()}`;
    // Connect before the timers are faked (the client's connect timer is a real one).
    await state.markEvent(`warm:${key}`, 60_000);
    await admin.set(layout.fenceKey(key), String(FENCE_BASE), 'PX', 600_000);
    vi.useFakeTimers({ now: 1_700_000_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const scale = REDIS_UNIT_MS / 300;
    const target: LeaseTarget = {
      name: 'state-redis',
      state,
      realTtlMs: (ttlMs) => Math.round(ttlMs * scale),
      fenceBase: FENCE_BASE,
      // The scripts must set the lease's TTL themselves (acquire PX, renew PEXPIRE): right after
      // a grant or renewal the key's PTTL is the full lease, never the aged remainder.
      checkTtl: async (lockKey, units) => {
        const pttl = await admin.pttl(layout.lockKey(lockKey));
        const full = units * REDIS_UNIT_MS;
        if (!(pttl > full - REDIS_UNIT_MS / 2 && pttl <= full)) {
          throw new TraceMismatchError(
            `state-redis: PTTL ${pttl} after a grant, expected ~${full}`,
          );
        }
      },
      // Redis's clock follows the model's: the live key's TTL is cut to what the model leaves.
      tick: async (lockKey, now, expiresAt) => {
        if (expiresAt === undefined) return;
        const left = (expiresAt - now) * REDIS_UNIT_MS;
        if (left <= 0) await admin.pexpireat(layout.lockKey(lockKey), 1);
        else await admin.pexpire(layout.lockKey(lockKey), left);
      },
      lose: async (lockKey) => {
        await admin.del(layout.lockKey(lockKey));
      },
    };
    try {
      const report = await replayLeaseTrace(steps, target, key);
      expect(report.stateCalls).toBe(operations(steps));
    } finally {
      vi.useRealTimers();
      await state.close();
    }
  });
});
