/**
 * `pnpm bench redis`: dispatches through the Redis State (`@rt/state-redis`) against a private
 * `redis-server` on a free loopback port (as the Redis tests start one): round trips the State's
 * client sends and commands the server runs per dispatch, per strategy (sequential, so nothing is
 * shared between deliveries), dispatches per second with 64 in flight, and `redis-benchmark`'s
 * raw SET/GET rate against the same server in the same run.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DEFAULT_CONCURRENCY, type StrategyName } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createRedisState } from '@rt/state-redis';
import { Redis } from 'ioredis';
// The Redis tests' own private-server helper (one mechanism, one place); not part of any build.
import { startRedisServer } from '../../../../packages/state-redis/src/test-support/redis-server.js';
import type { BenchRunOptions, BenchSection, TargetCheck } from '../report/section.js';
import { formatCount, formatFixed, median } from '../report/stats.js';
import { type Cost, formatCounts, measureCost } from './redis-counters.js';
import { measureDispatches } from './runtime-dispatch.js';
import { concurrentCycles, OPS_PER_CYCLE } from './state-cycle.js';

const STRATEGIES: readonly StrategyName[] = ['drop', 'queue', 'concurrent'];
const IN_FLIGHT = 64;

/** `redis-benchmark`'s requests per second for SET and GET (median of the two). */
async function rawRate(port: number, requests: number): Promise<number> {
  const { stdout } = await promisify(execFile)('redis-benchmark', [
    ...['-h', '127.0.0.1', '-p', String(port), '-n', String(requests), '-c', '50'],
    ...['-t', 'set,get', '--csv'],
  ]);
  const rates = [...stdout.matchAll(/^"(?:SET|GET)","([\d.]+)"/gm)].map((m) => Number(m[1]));
  if (rates.length === 0) throw new Error(`redis-benchmark printed no rate: ${stdout}`);
  return median(rates);
}

/** Runs the Redis benchmark. */
export async function redisBench(options: BenchRunOptions): Promise<BenchSection> {
  const dispatches = options.smoke ? 100 : 5_000;
  const costSample = options.smoke ? 50 : 500;
  const server = await startRedisServer();
  const admin = new Redis(server.url);
  const state = createRedisState({
    url: server.url,
    prefix: 'rt-bench:',
    fenceRetentionMs: 60_000,
  });
  const memory = createMemoryState();
  const raw: number[] = [];
  const costs = new Map<StrategyName, Cost>();
  const redisRate = new Map<StrategyName, number[]>(STRATEGIES.map((s) => [s, []]));
  const memoryRate = new Map<StrategyName, number[]>(STRATEGIES.map((s) => [s, []]));
  const cycles: number[] = [];
  try {
    for (let run = 0; run < options.runs; run += 1) {
      options.log(`redis: run ${run + 1}/${options.runs}`);
      raw.push(await rawRate(server.port, options.smoke ? 1_000 : 100_000));
      for (const strategy of STRATEGIES) {
        for (const target of [state, memory]) {
          await measureDispatches({ state: target, strategy, dispatches: 200, inFlight: 8 });
        }
        if (!costs.has(strategy)) {
          costs.set(
            strategy,
            await measureCost(admin, state.client, costSample, async () => {
              await measureDispatches({ state, strategy, dispatches: costSample, inFlight: 1 });
            }),
          );
        }
        const onRedis = await measureDispatches({
          state,
          strategy,
          dispatches,
          inFlight: IN_FLIGHT,
        });
        redisRate.get(strategy)!.push(onRedis.perSecond);
        const onMemory = await measureDispatches({
          state: memory,
          strategy,
          dispatches,
          inFlight: IN_FLIGHT,
        });
        memoryRate.get(strategy)!.push(onMemory.perSecond);
      }
      cycles.push(await concurrentCycles(state, options.smoke ? 100 : 5_000, 32));
    }
  } finally {
    admin.disconnect();
    await Promise.all([state.close(), memory.close()]);
    await server.dispose();
  }
  const rawRps = median(raw);
  const rows = STRATEGIES.map((strategy) => {
    const cost = costs.get(strategy)!;
    const rate = median(redisRate.get(strategy)!);
    return [
      strategy === DEFAULT_CONCURRENCY.strategy ? `${strategy} (default)` : strategy,
      formatFixed(cost.roundTrips),
      formatFixed(cost.serverCommands),
      formatCounts(cost.byCommand),
      formatCount(rate),
      formatFixed((rate * cost.roundTrips) / rawRps, 3),
      formatCount(median(memoryRate.get(strategy)!)),
    ];
  });
  const fallback = DEFAULT_CONCURRENCY.strategy as StrategyName;
  const defaultCost = costs.get(STRATEGIES.includes(fallback) ? fallback : 'queue')!;
  const evals = Object.keys(defaultCost.byCommand).filter(
    (name) => name === 'eval' || name === 'script',
  );
  const targets: TargetCheck[] = [
    {
      target: `Redis: <= 3 round trips per dispatch on the default strategy (${DEFAULT_CONCURRENCY.strategy})`,
      figure: `${formatFixed(defaultCost.roundTrips)} round trips (${formatCounts(defaultCost.byCommand)})`,
      met: defaultCost.roundTrips <= 3,
    },
    {
      target: 'Redis: scripts called by SHA (no EVAL or SCRIPT LOAD in steady state)',
      figure: evals.length === 0 ? 'EVALSHA only' : `also ${evals.join(', ')}`,
      met: evals.length === 0,
    },
  ];
  return {
    name: 'redis',
    title: 'Dispatch through the Redis State',
    method: [
      'A private `redis-server` on a free loopback port, no persistence; the State client is ioredis 5 from `@rt/state-redis`.',
      `Round trips = requests the State's client sent, server commands = \`INFO commandstats\` deltas (script bodies included), both per dispatch over ${costSample} sequential dispatches (unique threads, no-op handler, deferred, warmed up: scripts loaded).`,
      `dispatches/s: ${formatCount(dispatches)} dispatches, ${IN_FLIGHT} in flight, each awaited to its outcome; ${options.runs} run(s), medians. "share of raw" = dispatches/s x round trips / redis-benchmark's SET/GET rate (50 clients) on the same server in the same run.`,
    ],
    tables: [
      {
        header: [
          'strategy',
          'round trips / dispatch',
          'server commands / dispatch',
          'commands',
          'dispatches/s (Redis)',
          'share of raw rate',
          'dispatches/s (memory State)',
        ],
        rows,
      },
      {
        header: ['baseline', 'rate'],
        rows: [
          ['redis-benchmark SET/GET, 50 clients (requests/s)', formatCount(rawRps)],
          [
            `State lock cycle (${OPS_PER_CYCLE} ops: mark, acquire, renew, release), 32 workers (cycles/s)`,
            formatCount(median(cycles)),
          ],
        ],
      },
    ],
    targets,
  };
}
