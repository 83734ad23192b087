/**
 * Benchmark: what one lock cycle (markEvent + acquireLock + renewLock + releaseLock) costs against
 * a local Redis. Prints round trips per cycle (counted by the server) and cycles and operations per
 * second, sequentially and with concurrent workers. Not a test: numbers depend on the machine.
 *
 *   pnpm --filter @rt/state-redis bench            # private redis-server on a free port
 *   REDIS_URL=redis://127.0.0.1:6379 pnpm ... bench
 *   BENCH_CYCLES=20000 BENCH_WORKERS=64 pnpm ... bench
 */
import { randomUUID } from 'node:crypto';
import type { State } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { Redis } from 'ioredis';
import { createRedisState, type RedisState } from '../src/index.js';
import { provideRedisUrl } from '../src/test-support/redis-server.js';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 5000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 32);
const OPS_PER_CYCLE = 4;

/** One dedupe + lock cycle on fresh keys. */
async function cycle(state: State, run: string, index: number): Promise<void> {
  const key = `bench:${run}:${index}`;
  if (!(await state.markEvent(key, 60_000))) throw new Error('duplicate mark');
  const lease = await state.acquireLock(key, 30_000);
  if (lease === null) throw new Error('lock held');
  if (!(await state.renewLock(lease, 30_000))) throw new Error('renew failed');
  if (!(await state.releaseLock(lease))) throw new Error('release failed');
}

interface Row {
  readonly state: string;
  readonly mode: string;
  readonly cycles: number;
  readonly seconds: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
}

async function sequential(name: string, state: State, cycles: number): Promise<Row> {
  const run = randomUUID();
  const latencies: number[] = [];
  const started = performance.now();
  for (let index = 0; index < cycles; index += 1) {
    const t0 = performance.now();
    await cycle(state, run, index);
    latencies.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return { state: name, mode: 'sequential', cycles, seconds, p50Ms: at(0.5), p99Ms: at(0.99) };
}

async function concurrent(
  name: string,
  state: State,
  cycles: number,
  workers: number,
): Promise<Row> {
  const run = randomUUID();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let index = next++; index < cycles; index = next++) await cycle(state, run, index);
    }),
  );
  return {
    state: name,
    mode: `${workers} workers`,
    cycles,
    seconds: (performance.now() - started) / 1000,
  };
}

interface CycleCost {
  /** Requests the client sent per cycle (each one round trip: nothing is pipelined). */
  readonly roundTrips: number;
  /** Commands the server ran per cycle, including those inside scripts. */
  readonly serverCommands: number;
}

/** Counts one cycle's cost on the client (sendCommand) and on the server (INFO stats). */
async function costPerCycle(url: string, state: RedisState, cycles: number): Promise<CycleCost> {
  const admin = new Redis(url);
  const processed = async () =>
    Number(/total_commands_processed:(\d+)/.exec(await admin.info('stats'))?.[1] ?? Number.NaN);
  const client = state.client as Redis;
  const send = client.sendCommand;
  let sent = 0;
  try {
    await cycle(state, randomUUID(), 0); // load the scripts first (NOSCRIPT fallback)
    client.sendCommand = function counted(this: Redis, ...args: Parameters<Redis['sendCommand']>) {
      sent += 1;
      return send.apply(this, args);
    } as Redis['sendCommand'];
    const before = await processed();
    const run = randomUUID();
    for (let index = 0; index < cycles; index += 1) await cycle(state, run, index);
    const after = await processed();
    return { roundTrips: sent / cycles, serverCommands: (after - before - 1) / cycles };
  } finally {
    client.sendCommand = send;
    admin.disconnect();
  }
}

function format(rows: readonly Row[]): string {
  const header = ['state', 'mode', 'cycles', 'cycles/s', 'ops/s', 'p50 ms', 'p99 ms'];
  const lines = rows.map((row) => [
    row.state,
    row.mode,
    String(row.cycles),
    Math.round(row.cycles / row.seconds).toLocaleString('en-US'),
    Math.round((row.cycles * OPS_PER_CYCLE) / row.seconds).toLocaleString('en-US'),
    row.p50Ms === undefined ? '' : row.p50Ms.toFixed(3),
    row.p99Ms === undefined ? '' : row.p99Ms.toFixed(3),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]!.length)),
  );
  const render = (cells: string[]) =>
    cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  return [
    render(header),
    render(widths.map((width) => '-'.repeat(width))),
    ...lines.map(render),
  ].join('\n');
}

async function main(): Promise<void> {
  const redis = await provideRedisUrl();
  const state = createRedisState({ url: redis.url, prefix: 'rt-bench:' });
  const memory = createMemoryState();
  try {
    const cost = await costPerCycle(redis.url, state, 200);
    const rows = [
      await sequential('redis', state, CYCLES),
      await concurrent('redis', state, CYCLES, WORKERS),
      await sequential('memory', memory, CYCLES),
      await concurrent('memory', memory, CYCLES, WORKERS),
    ];
    console.log(
      `lock cycle = markEvent + acquireLock + renewLock + releaseLock (${OPS_PER_CYCLE} ops)`,
    );
    console.log(`redis round trips per cycle: ${cost.roundTrips.toFixed(2)}`);
    console.log(
      `redis commands run per cycle: ${cost.serverCommands.toFixed(2)} (inside scripts too)`,
    );
    console.log(
      `redis: ${process.env.REDIS_URL ? 'REDIS_URL' : 'private redis-server'}, node ${process.version}\n`,
    );
    console.log(format(rows));
  } finally {
    await Promise.all([state.close(), memory.close()]);
    await redis.release();
  }
}

await main();
