/**
 * What one State lock cycle (markEvent + acquireLock + renewLock + releaseLock on fresh keys)
 * costs, sequentially and with concurrent workers.
 */
import { randomUUID } from 'node:crypto';
import type { State } from '@rt/core';

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

/** `cycles` cycles spread over `workers` concurrent loops; resolves cycles per second. */
export async function concurrentCycles(
  state: State,
  cycles: number,
  workers: number,
): Promise<number> {
  const run = randomUUID();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let index = next++; index < cycles; index = next++) await cycle(state, run, index);
    }),
  );
  return cycles / ((performance.now() - started) / 1000);
}
