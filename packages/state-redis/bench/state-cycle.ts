/**
 * What one State lock cycle (markEvent + acquireLock + renewLock + releaseLock on fresh keys)
 * costs, sequentially and with concurrent workers.
 */
import { randomUUID } from 'node:crypto';
import type { State } from '@rt/core';
import { count, quantileMs } from './table.js';

/** Operations in one cycle. */
export const OPS_PER_CYCLE = 4;

/** One dedupe + lock cycle on fresh keys. */
export async function cycle(state: State, run: string, index: number): Promise<void> {
  const key = `bench:${run}:${index}`;
  if (!(await state.markEvent(key, 60_000))) throw new Error('duplicate mark');
  const lease = await state.acquireLock(key, 30_000);
  if (lease === null) throw new Error('lock held');
  if (!(await state.renewLock(lease, 30_000))) throw new Error('renew failed');
  if (!(await state.releaseLock(lease))) throw new Error('release failed');
}

/** One measured run, as table cells: state, mode, cycles, cycles/s, ops/s, p50 ms, p99 ms. */
export type CycleRow = readonly string[];

/** Header of `CycleRow`s. */
export const CYCLE_HEADER = ['state', 'mode', 'cycles', 'cycles/s', 'ops/s', 'p50 ms', 'p99 ms'];

/** `cycles` cycles one after another, with latency quantiles. */
export async function sequentialCycles(
  name: string,
  state: State,
  cycles: number,
): Promise<CycleRow> {
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
  return row(
    name,
    'sequential',
    cycles,
    seconds,
    quantileMs(latencies, 0.5),
    quantileMs(latencies, 0.99),
  );
}

/** `cycles` cycles spread over `workers` concurrent loops. */
export async function concurrentCycles(
  name: string,
  state: State,
  cycles: number,
  workers: number,
): Promise<CycleRow> {
  const run = randomUUID();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let index = next++; index < cycles; index = next++) await cycle(state, run, index);
    }),
  );
  return row(name, `${workers} workers`, cycles, (performance.now() - started) / 1000, '', '');
}

function row(
  name: string,
  mode: string,
  cycles: number,
  seconds: number,
  p50: string,
  p99: string,
): CycleRow {
  return [
    name,
    mode,
    String(cycles),
    count(cycles / seconds),
    count((cycles * OPS_PER_CYCLE) / seconds),
    p50,
    p99,
  ];
}
