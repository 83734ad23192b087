import { describe, expect, it } from 'vitest';
import { nowMs } from './clock.js';
import { Pacer } from './pacer.js';

describe('Pacer', () => {
  it('hands every delivery over once, in order, never before it is due', async () => {
    const seen: { n: number; dueAt: number; at: number }[] = [];
    const pacer = await Pacer.open(20_000, 300, (n, dueAt) => seen.push({ n, dueAt, at: nowMs() }));
    const startedAt = pacer.start();
    await pacer.finished;
    expect(seen.map((entry) => entry.n)).toEqual(Array.from({ length: 300 }, (_, n) => n));
    for (const { n, dueAt, at } of seen) {
      expect(dueAt).toBeCloseTo(startedAt + n * 0.05, 9);
      expect(at).toBeGreaterThanOrEqual(dueAt);
    }
  });

  it('finishes at once with nothing to pace', async () => {
    const pacer = await Pacer.open(1_000, 0, () => {
      throw new Error('nothing is due');
    });
    pacer.start();
    await expect(pacer.finished).resolves.toBeUndefined();
  });
});
