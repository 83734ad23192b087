/**
 * Benchmark of the Redis State against a local Redis. Not a test: numbers depend on the machine.
 *
 * 1. Runtime dispatches: `runtime.dispatch` through `@rt/core` with a no-op handler (deferred
 *    dispatch, one thread per event), sequentially and with many in flight; Redis round trips and
 *    server commands per dispatch. The memory State alongside, for scale.
 * 2. State lock cycles: markEvent + acquireLock + renewLock + releaseLock, the State alone.
 *
 *   pnpm --filter @rt/state-redis bench            # private redis-server on a free port
 *   REDIS_URL=redis://127.0.0.1:6379 pnpm ... bench  # (command counts then include other clients)
 *   BENCH_DISPATCHES=20000 BENCH_IN_FLIGHT=128 BENCH_CYCLES=20000 BENCH_WORKERS=64 pnpm ... bench
 */
import { randomUUID } from 'node:crypto';
import type { StrategyName } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { Redis } from 'ioredis';
import { createRedisState } from '../src/index.js';
import { provideRedisUrl } from '../src/test-support/redis-server.js';
import { formatCounts, measureCost } from './redis-counters.js';
import { DISPATCH_HEADER, type DispatchRow, measureDispatches } from './runtime-dispatch.js';
import {
  CYCLE_HEADER,
  type CycleRow,
  concurrentCycles,
  cycle,
  OPS_PER_CYCLE,
  sequentialCycles,
} from './state-cycle.js';
import { table } from './table.js';

const DISPATCHES = Number(process.env.BENCH_DISPATCHES ?? 5000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 64);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 5000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 32);
const STRATEGIES: readonly StrategyName[] = ['drop', 'queue', 'concurrent'];
const COST_SAMPLE = 500;

async function main(): Promise<void> {
  const redis = await provideRedisUrl();
  const admin = new Redis(redis.url);
  const state = createRedisState({ url: redis.url, prefix: 'rt-bench:', fenceRetentionMs: 60_000 });
  const memory = createMemoryState();
  try {
    console.log(
      `redis: ${process.env.REDIS_URL ? 'REDIS_URL' : 'private redis-server'}, node ${process.version}\n`,
    );

    console.log('runtime.dispatch, no-op handler, deferred, one thread per event');
    const costs: string[] = [];
    const dispatchRows: DispatchRow[] = [];
    for (const strategy of STRATEGIES) {
      for (const target of [state, memory]) {
        await measureDispatches({
          label: 'warm-up',
          state: target,
          strategy,
          dispatches: 200,
          inFlight: 8,
        });
      }
      const cost = await measureCost(admin, state.client, COST_SAMPLE, async () => {
        await measureDispatches({
          label: 'cost',
          state,
          strategy,
          dispatches: COST_SAMPLE,
          inFlight: 1,
        });
      });
      costs.push(
        `  ${strategy.padEnd(10)} ${cost.roundTrips.toFixed(2)} round trips, ` +
          `${cost.serverCommands.toFixed(2)} server commands (${formatCounts(cost.byCommand)})`,
      );
      for (const [label, target] of [
        ['redis', state],
        ['memory', memory],
      ] as const) {
        for (const inFlight of [1, IN_FLIGHT]) {
          const dispatches = inFlight === 1 ? Math.ceil(DISPATCHES / 5) : DISPATCHES;
          dispatchRows.push(
            await measureDispatches({ label, state: target, strategy, dispatches, inFlight }),
          );
        }
      }
    }
    console.log('per dispatch (redis, sequential):');
    console.log(costs.join('\n'));
    console.log('');
    console.log(table(DISPATCH_HEADER, dispatchRows));

    console.log(
      `\nState lock cycle = markEvent + acquireLock + renewLock + releaseLock (${OPS_PER_CYCLE} ops)`,
    );
    await cycle(state, randomUUID(), 0); // load the scripts first (NOSCRIPT fallback)
    const cycleCost = await measureCost(admin, state.client, COST_SAMPLE, async () => {
      const run = randomUUID();
      for (let index = 0; index < COST_SAMPLE; index += 1) await cycle(state, run, index);
    });
    console.log(
      `per cycle (redis): ${cycleCost.roundTrips.toFixed(2)} round trips, ` +
        `${cycleCost.serverCommands.toFixed(2)} server commands (${formatCounts(cycleCost.byCommand)})\n`,
    );
    const cycleRows: CycleRow[] = [
      await sequentialCycles('redis', state, CYCLES),
      await concurrentCycles('redis', state, CYCLES, WORKERS),
      await sequentialCycles('memory', memory, CYCLES),
      await concurrentCycles('memory', memory, CYCLES, WORKERS),
    ];
    console.log(table(CYCLE_HEADER, cycleRows));
  } finally {
    admin.disconnect();
    await Promise.all([state.close(), memory.close()]);
    await redis.release();
  }
}

await main();
