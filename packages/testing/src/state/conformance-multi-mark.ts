/**
 * Conformance: the optional `MultiKeyMark` capability (`markEvents`): all-or-nothing marks of
 * several identities of one delivery, in the key space `markEvent` uses.
 */
import { hasErrorCode, type State } from '@rt/core';
import {
  hasMultiKeyMark,
  installationMarkKey,
  MAX_MARK_KEYS,
  type MultiKeyMark,
} from '@rt/core/state';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type ConformanceContext, concurrently, sleep } from './conformance-context.js';

/** A TTL no test outlives. */
const LONG_TTL_MS = 10_000;
/** How many distinct keys one property-test plan draws from (small, so sets overlap often). */
const UNIVERSE = 6;

/** One step of a plan: `markEvent(keys[0])` when `single`, else `markEvents(keys)`. */
interface MarkOp {
  readonly single: boolean;
  readonly keys: readonly number[];
}

/** Batches run one after another; the marks of one batch are all started at once. */
const planArbitrary = fc.array(
  fc.array(
    fc.record({
      single: fc.boolean(),
      keys: fc.uniqueArray(fc.integer({ min: 0, max: UNIVERSE - 1 }), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
    { minLength: 1, maxLength: 8 },
  ),
  { minLength: 1, maxLength: 4 },
);

/** The keys an op marks. */
const keysOf = (op: MarkOp): readonly number[] => (op.single ? op.keys.slice(0, 1) : op.keys);

/** Registers the multi-key mark tests. */
export function defineMultiMarkTests(ctx: ConformanceContext): void {
  async function openMulti(): Promise<State & MultiKeyMark> {
    const state = await ctx.open();
    expect(hasMultiKeyMark(state)).toBe(true);
    return state as State & MultiKeyMark;
  }

  /** Keys of one fresh installation (unique to this run), mixing the `event` and `message` kinds. */
  function installation(label: string): (kind: 'event' | 'message', id: string) => string {
    const tenant = ctx.key(label);
    return (kind, id) => installationMarkKey(kind, 'conformance', tenant, id);
  }

  it('marks every key on the first multi-mark and refuses the same set while it lives', async () => {
    const state = await openMulti();
    const key = installation('multi-first');
    const keys = [key('event', 'Ev1'), key('message', 'C1/1.1'), key('message', 'C1/1.2')];
    expect(await state.markEvents(keys, LONG_TTL_MS)).toBe(true);
    expect(await state.markEvents(keys, LONG_TTL_MS)).toBe(false);
    for (const one of keys) expect(await state.markEvents([one], LONG_TTL_MS)).toBe(false);
  });

  it('refuses a set that overlaps a live mark in one key and leaves its other keys unmarked', async () => {
    const state = await openMulti();
    const key = installation('multi-overlap');
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((id) => key('message', id)) as [
      string,
      string,
      string,
      string,
      string,
    ];
    expect(await state.markEvents([a, b], LONG_TTL_MS)).toBe(true);
    expect(await state.markEvents([b, c, d], LONG_TTL_MS)).toBe(false); // overlap first
    expect(await state.markEvents([e, c, a], LONG_TTL_MS)).toBe(false); // overlap last
    expect(await state.markEvents([c, d, e], LONG_TTL_MS)).toBe(true);
  });

  it('is refused by a live markEvent mark and neither extends it nor marks the rest', async () => {
    const state = await openMulti();
    const key = installation('multi-after-single');
    const ttl = ctx.options.shortTtlMs;
    const primary = key('event', 'Ev1');
    const secondary = key('message', 'C1/1.1');
    expect(await state.markEvent(primary, ttl)).toBe(true);
    expect(await state.markEvents([primary, secondary], LONG_TTL_MS)).toBe(false);
    expect(await state.markEvents([secondary, primary], LONG_TTL_MS)).toBe(false);
    await sleep(ttl * 2);
    // Not extended: the short mark has lapsed. And the secondary key was never marked.
    expect(await state.markEvent(primary, LONG_TTL_MS)).toBe(true);
    expect(await state.markEvent(secondary, LONG_TTL_MS)).toBe(true);
  });

  it('leaves marks that markEvent meets for every key, primary and secondary', async () => {
    const state = await openMulti();
    const key = installation('single-after-multi');
    const primary = key('event', 'Ev1');
    const secondary = key('message', 'C1/1.1');
    expect(await state.markEvents([primary, secondary], LONG_TTL_MS)).toBe(true);
    expect(await state.markEvent(primary, LONG_TTL_MS)).toBe(false);
    expect(await state.markEvent(secondary, LONG_TTL_MS)).toBe(false);
    // A second event id for the same message: a duplicate through the shared secondary key.
    expect(await state.markEvents([key('event', 'Ev2'), secondary], LONG_TTL_MS)).toBe(false);
    expect(await state.markEvent(key('event', 'Ev2'), LONG_TTL_MS)).toBe(true);
  });

  it('lets every key be marked again once the multi-mark has expired', async () => {
    const state = await openMulti();
    const key = installation('multi-expiry');
    const ttl = ctx.options.shortTtlMs;
    const keys = [key('event', 'Ev1'), key('message', 'C1/1.1')];
    expect(await state.markEvents(keys, ttl)).toBe(true);
    expect(await state.markEvents(keys, ttl)).toBe(false);
    await sleep(ttl * 2);
    expect(await state.markEvent(keys[1]!, ttl)).toBe(true);
    expect(await state.markEvents([keys[0]!], ttl)).toBe(true);
    expect(await state.markEvents(keys, ttl)).toBe(false);
  });

  it('does not extend live marks when a multi-mark is refused', async () => {
    const state = await openMulti();
    const key = installation('multi-no-extend');
    const ttl = ctx.options.shortTtlMs;
    const keys = [key('event', 'Ev1'), key('message', 'C1/1.1')];
    expect(await state.markEvents(keys, ttl)).toBe(true);
    await sleep(ttl / 3);
    expect(await state.markEvents(keys, ttl * 20)).toBe(false);
    await sleep(ttl * 1.5);
    expect(await state.markEvents(keys, ttl)).toBe(true);
  });

  it('accepts exactly one of many concurrent multi-marks sharing a key, and only its keys', async () => {
    const state = await openMulti();
    const key = installation('multi-race');
    const shared = key('message', 'shared');
    const own = (index: number) => key('event', `Ev${index}`);
    const results = await concurrently(ctx.options.concurrency, (index) =>
      state.markEvents([own(index), shared], LONG_TTL_MS),
    );
    const winners = results.flatMap((won, index) => (won ? [index] : []));
    expect(winners).toHaveLength(1);
    for (let index = 0; index < results.length; index += 1) {
      // A loser's own key was left unmarked; the winner's is taken.
      expect(await state.markEvent(own(index), LONG_TTL_MS)).toBe(index !== winners[0]);
    }
  });

  it('lets exactly one of concurrent markEvent and markEvents calls on one key win', async () => {
    const state = await openMulti();
    const key = installation('mixed-race');
    const shared = key('event', 'Ev1');
    const results = await concurrently(ctx.options.concurrency, (index) =>
      index % 2 === 0
        ? state.markEvent(shared, LONG_TTL_MS)
        : state.markEvents([shared, key('message', `m${index}`)], LONG_TTL_MS),
    );
    expect(results.filter((won) => won)).toHaveLength(1);
  });

  it('behaves like some one-at-a-time order of the marks, whatever runs at once (property)', async () => {
    const state = await openMulti();
    await fc.assert(
      fc.asyncProperty(planArbitrary, async (plan) => {
        const key = installation('property');
        const names = Array.from({ length: UNIVERSE }, (_, index) =>
          key(index % 2 === 0 ? 'event' : 'message', `k${index}`),
        );
        const marked = new Set<number>();
        for (const batch of plan) {
          const results = await Promise.all(
            batch.map((op) =>
              op.single
                ? state.markEvent(names[op.keys[0]!]!, LONG_TTL_MS)
                : state.markEvents(
                    op.keys.map((index) => names[index]!),
                    LONG_TTL_MS,
                  ),
            ),
          );
          // The batch is linearizable iff the winners go first: they must cover disjoint keys
          // none of which was marked before, and every loser must meet a mark (earlier or a
          // winner's). So at most one successful mark ever covers a key while it lives.
          const covered = new Set<number>();
          batch.forEach((op, index) => {
            if (!results[index]) return;
            for (const k of keysOf(op)) {
              expect(marked.has(k) || covered.has(k), `key ${k} covered twice`).toBe(false);
              covered.add(k);
            }
          });
          batch.forEach((op, index) => {
            if (results[index]) return;
            const met = keysOf(op).some((k) => marked.has(k) || covered.has(k));
            expect(met, `refused ${JSON.stringify(op)} met no mark`).toBe(true);
          });
          for (const k of covered) marked.add(k);
        }
        // Refused marks changed nothing: exactly the winners' keys are marked.
        for (let index = 0; index < UNIVERSE; index += 1) {
          expect(await state.markEvent(names[index]!, LONG_TTL_MS), `key ${index}`).toBe(
            !marked.has(index),
          );
        }
      }),
      { numRuns: ctx.options.propertyRuns },
    );
  });

  it('rejects a bad key list or TTL and marks none of the keys in it', async () => {
    const state = await openMulti();
    const key = installation('multi-invalid');
    const other = installation('multi-invalid-other');
    const valid = key('event', 'Ev1');
    const calls: Array<[string, unknown, unknown, ErrorConstructor]> = [
      ['not an array', valid, LONG_TTL_MS, TypeError],
      ['no keys', [], LONG_TTL_MS, RangeError],
      ['an empty key', [valid, ''], LONG_TTL_MS, TypeError],
      ['a repeated key', [valid, key('message', 'm'), valid], LONG_TTL_MS, RangeError],
      ['two installations', [valid, other('message', 'm')], LONG_TTL_MS, RangeError],
      [
        'too many keys',
        Array.from({ length: MAX_MARK_KEYS + 1 }, (_, index) => key('message', `m${index}`)),
        LONG_TTL_MS,
        RangeError,
      ],
      ['a zero TTL', [valid], 0, RangeError],
      ['a fractional TTL', [valid], 1.5, RangeError],
    ];
    for (const [name, keys, ttl, type] of calls) {
      await expect(state.markEvents(keys as string[], ttl as number), name).rejects.toThrow(type);
    }
    expect(await state.markEvents([valid, key('message', 'm')], LONG_TTL_MS)).toBe(true);
    expect(await state.markEvent(key('message', 'm0'), LONG_TTL_MS)).toBe(true);
  });

  it('rejects after close as state-unavailable, marking nothing', async () => {
    const closed = await openMulti();
    const key = installation('multi-closed');
    const keys = [key('event', 'Ev1'), key('message', 'C1/1.1')];
    await closed.close();
    const error = await closed.markEvents(keys, LONG_TTL_MS).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(Error);
    expect(hasErrorCode(error, 'RT_STATE_UNAVAILABLE')).toBe(true);
    // A State on the same store (for a shared store: the very same marks) finds them unmarked.
    const fresh = await openMulti();
    expect(await fresh.markEvents(keys, LONG_TTL_MS)).toBe(true);
  });
}
