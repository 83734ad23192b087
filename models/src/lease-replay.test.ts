import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryState } from '@rt/state-memory';
import { createRedisState, keyLayout } from '@rt/state-redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The State package's own test helper (a private redis-server on loopback); not part of its build.
import {
  type PrivateRedisServer,
  startRedisServer,
} from '../../packages/state-redis/src/test-support/redis-server.js';
import { type LeaseTarget, replayLeaseTrace, TraceMismatchError } from './lease-replay.js';
import { generateLeaseTrace, type LeaseStep, parseJsonLines } from './lease-trace.js';
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

const UNIT_MS = 1000;

function memoryTarget(): LeaseTarget {
  let now = 0;
  const base = 1_700_000_000_000;
  return {
    name: 'state-memory',
    state: createMemoryState({ now: () => base + now * UNIT_MS }),
    ttlMs: (units) => units * UNIT_MS,
    advance: async (to) => {
      now = to;
    },
    expire: async () => {
      // The injected clock already passed the lease's expiry.
    },
  };
}

describe('model 1 traces replayed on @rt/state-memory', () => {
  it('commits at least three traces that exercise a takeover after expiry', () => {
    expect(committed.length).toBeGreaterThanOrEqual(3);
    for (const trace of committed) {
      expect(trace.steps.some((step) => step.op === 'acquire' && step.ok)).toBe(true);
    }
  });

  it.each(traces)('returns what the model did at every step of $name', async ({ name, steps }) => {
    const target = memoryTarget();
    const compared = await replayLeaseTrace(steps, target, `trace:${name}`);
    expect(compared).toBe(steps.filter((step) => step.op !== 'tick').length);
    await target.state.close();
  });

  it('reports the first step where an implementation disagrees with the model', async () => {
    const steps: LeaseStep[] = [
      { op: 'acquire', inst: 0, tok: 1, now: 0, ttl: 3, ok: true, fence: 1 },
      { op: 'acquire', inst: 1, tok: 2, now: 0, ttl: 3, ok: true, fence: 2 },
    ];
    const target = memoryTarget();
    await expect(replayLeaseTrace(steps, target, 'k')).rejects.toThrow(TraceMismatchError);
    await target.state.close();
  });
});

describe('model 1 traces replayed on @rt/state-redis (real redis-server)', () => {
  let server: PrivateRedisServer;
  let admin: Redis;
  const prefix = 'rt-models:';
  const layout = keyLayout(prefix);

  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url, { lazyConnect: true });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.quit();
    await server?.dispose();
  });

  it.each(traces)('returns what the model did at every step of $name', async ({ name, steps }) => {
    const state = createRedisState({ url: server.url, prefix });
    const target: LeaseTarget = {
      name: 'state-redis',
      state,
      // Long real TTLs: Redis's own clock never expires a lease during the replay; the model's
      // clock does, through PEXPIREAT in the past (Redis deletes the key as expired at once).
      ttlMs: (units) => units * 60_000,
      advance: async () => undefined,
      expire: async (key) => {
        await admin.pexpireat(layout.lockKey(key), 1);
        expect(await admin.exists(layout.lockKey(key))).toBe(0);
      },
    };
    try {
      const compared = await replayLeaseTrace(steps, target, `trace:${name}`);
      expect(compared).toBe(steps.filter((step) => step.op !== 'tick').length);
    } finally {
      await state.close();
    }
  });
});
