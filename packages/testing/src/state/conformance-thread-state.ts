/**
 * Conformance: the optional `FencedThreadState` capability: one fenced JSON value per thread key,
 * the highest fence wins, a lower fence never replaces it.
 */
import type { State } from '@rt/core';
import {
  type FencedThreadState,
  hasFencedThreadState,
  MAX_THREAD_STATE_BYTES,
} from '@rt/core/state';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type ConformanceContext, concurrently, sleep } from './conformance-context.js';

/** A TTL no test outlives. */
const LONG_TTL_MS = 10_000;

/** One write of the property test: which writer, with which fence. */
interface Write {
  readonly writer: 'a' | 'b';
  readonly fence: number;
}

/**
 * Batches run one after another; the writes of one batch start at once. Each writer's fences rise
 * and fall at random (a lease lost and a late write, a successor, a paused instance...).
 */
const planArbitrary = fc.array(
  fc.array(
    fc.record({
      writer: fc.constantFrom<'a' | 'b'>('a', 'b'),
      fence: fc.integer({ min: 0, max: 12 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  { minLength: 1, maxLength: 8 },
);

/** Registers the thread state tests. */
export function defineThreadStateTests(ctx: ConformanceContext): void {
  async function open(): Promise<State & FencedThreadState> {
    const state = await ctx.open();
    expect(hasFencedThreadState(state)).toBe(true);
    return state as State & FencedThreadState;
  }

  it('stores a value with its fence and version 1, and reads it back', async () => {
    const state = await open();
    const key = ctx.key('ts');
    expect(await state.readThreadState(key)).toBeNull();
    expect(await state.writeThreadState(key, '{"a":1}', 5, LONG_TTL_MS)).toEqual({
      ok: true,
      version: 1,
    });
    expect(await state.readThreadState(key)).toEqual({ value: '{"a":1}', fence: 5, version: 1 });
  });

  it('accepts an equal or higher fence and raises the version each time', async () => {
    const state = await open();
    const key = ctx.key('ts-rise');
    await state.writeThreadState(key, '1', 5, LONG_TTL_MS);
    expect(await state.writeThreadState(key, '2', 5, LONG_TTL_MS)).toEqual({
      ok: true,
      version: 2,
    });
    expect(await state.writeThreadState(key, '3', 9, LONG_TTL_MS)).toEqual({
      ok: true,
      version: 3,
    });
    expect(await state.readThreadState(key)).toEqual({ value: '3', fence: 9, version: 3 });
  });

  it('refuses a lower fence as stale, naming the stored fence, and changes nothing', async () => {
    const state = await open();
    const key = ctx.key('ts-stale');
    await state.writeThreadState(key, '"successor"', 9, LONG_TTL_MS);
    expect(await state.writeThreadState(key, '"late"', 8, LONG_TTL_MS)).toEqual({
      ok: false,
      reason: 'stale-fence',
      fence: 9,
    });
    expect(await state.readThreadState(key)).toEqual({
      value: '"successor"',
      fence: 9,
      version: 1,
    });
  });

  it('writes with expectedVersion only when the stored version matches (0: no record)', async () => {
    const state = await open();
    const key = ctx.key('ts-version');
    expect(await state.writeThreadState(key, '1', 1, LONG_TTL_MS, 1)).toEqual({
      ok: false,
      reason: 'version-mismatch',
      version: 0,
    });
    expect(await state.writeThreadState(key, '1', 1, LONG_TTL_MS, 0)).toEqual({
      ok: true,
      version: 1,
    });
    expect(await state.writeThreadState(key, '2', 1, LONG_TTL_MS, 0)).toEqual({
      ok: false,
      reason: 'version-mismatch',
      version: 1,
    });
    expect(await state.writeThreadState(key, '2', 1, LONG_TTL_MS, 1)).toEqual({
      ok: true,
      version: 2,
    });
    expect((await state.readThreadState(key))?.value).toBe('2');
  });

  it('checks the fence before the version: a stale writer with the right version is refused', async () => {
    const state = await open();
    const key = ctx.key('ts-order');
    await state.writeThreadState(key, '1', 9, LONG_TTL_MS);
    expect(await state.writeThreadState(key, '2', 3, LONG_TTL_MS, 1)).toMatchObject({
      ok: false,
      reason: 'stale-fence',
    });
  });

  it('lets exactly one of many concurrent writes with the same expected version through', async () => {
    const state = await open();
    const key = ctx.key('ts-race');
    await state.writeThreadState(key, '0', 1, LONG_TTL_MS);
    const results = await concurrently(ctx.options.concurrency, (index) =>
      state.writeThreadState(key, String(index), 1, LONG_TTL_MS, 1),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect((await state.readThreadState(key))?.version).toBe(2);
  });

  it('ends the record, and its fence floor, after its TTL', async () => {
    const state = await open();
    const key = ctx.key('ts-expiry');
    await state.writeThreadState(key, '"old"', 9, ctx.options.shortTtlMs);
    await sleep(ctx.options.shortTtlMs * 2);
    expect(await state.readThreadState(key)).toBeNull();
    expect(await state.writeThreadState(key, '"new"', 1, LONG_TTL_MS, 0)).toEqual({
      ok: true,
      version: 1,
    });
  });

  it('accepts a value of exactly the size bound and refuses a larger one, writing nothing', async () => {
    const state = await open();
    const key = ctx.key('ts-size');
    const exact = `"${'é'.repeat((MAX_THREAD_STATE_BYTES - 2) / 2)}"`;
    expect((await state.writeThreadState(key, exact, 1, LONG_TTL_MS)).ok).toBe(true);
    await expect(state.writeThreadState(key, `${exact} `, 2, LONG_TTL_MS)).rejects.toBeInstanceOf(
      RangeError,
    );
    expect(await state.readThreadState(key)).toMatchObject({ fence: 1, version: 1 });
  });

  it('rejects bad arguments with TypeError or RangeError', async () => {
    const state = await open();
    const key = ctx.key('ts-bad');
    await expect(state.readThreadState('')).rejects.toBeInstanceOf(TypeError);
    await expect(state.writeThreadState('', '1', 1, LONG_TTL_MS)).rejects.toBeInstanceOf(TypeError);
    await expect(
      state.writeThreadState(key, 1 as unknown as string, 1, LONG_TTL_MS),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(state.writeThreadState(key, '1', -1, LONG_TTL_MS)).rejects.toBeInstanceOf(
      RangeError,
    );
    await expect(state.writeThreadState(key, '1', 1.5, LONG_TTL_MS)).rejects.toBeInstanceOf(
      RangeError,
    );
    await expect(state.writeThreadState(key, '1', 1, 0)).rejects.toBeInstanceOf(RangeError);
    await expect(state.writeThreadState(key, '1', 1, LONG_TTL_MS, -1)).rejects.toBeInstanceOf(
      RangeError,
    );
    expect(await state.readThreadState(key)).toBeNull();
  });

  it('property: with two writers and rising and falling fences, the highest accepted fence always holds', async () => {
    const state = await open();
    await fc.assert(
      fc.asyncProperty(planArbitrary, async (plan) => {
        const key = ctx.key('ts-property');
        let stored: { fence: number; value: string } | undefined;
        for (const [batchIndex, batch] of plan.entries()) {
          const values = batch.map(
            (write: Write, index) => `"${write.writer}:${batchIndex}:${index}"`,
          );
          const results = await Promise.all(
            batch.map((write, index) =>
              state.writeThreadState(key, values[index] as string, write.fence, LONG_TTL_MS),
            ),
          );
          const before = stored?.fence ?? Number.NEGATIVE_INFINITY;
          const top = Math.max(before, ...batch.map((write) => write.fence));
          for (const [index, write] of batch.entries()) {
            const result = results[index];
            // Below the floor the batch started from: never accepted.
            if (write.fence < before) expect(result).toMatchObject({ reason: 'stale-fence' });
            // At the highest fence so far: nothing can be above it, so always accepted.
            if (write.fence === top) expect(result?.ok).toBe(true);
          }
          const record = await state.readThreadState(key);
          expect(record?.fence).toBe(top);
          const winners = batch
            .map((write, index) => ({ write, value: values[index], ok: results[index]?.ok }))
            .filter((entry) => entry.write.fence === top && entry.ok);
          if (winners.length > 0) {
            expect(winners.map((entry) => entry.value)).toContain(record?.value);
          } else {
            expect(record?.value).toBe(stored?.value); // nothing in this batch reached the floor
          }
          stored = { fence: top, value: record?.value as string };
        }
      }),
      { numRuns: ctx.options.propertyRuns },
    );
  });
}
