import { describe, expect, it } from 'vitest';
import { InDoubtMarks } from './in-doubt-marks.js';

describe('in-doubt marks', () => {
  it('finds the tokens of every live write naming a key, once each', () => {
    const marks = new InDoubtMarks();
    marks.add(['a', 'b'], 'T1', 1000, 0);
    marks.add(['b'], 'T2', 1000, 0);
    expect(marks.tokensFor(['a'], 10)).toEqual(['T1']);
    expect(marks.tokensFor(['a', 'b'], 10)).toEqual(['T1', 'T2']);
    expect(marks.tokensFor(['c'], 10)).toEqual([]);
  });

  it('forgets a write once its mark has expired in Redis anyway', () => {
    const marks = new InDoubtMarks();
    marks.add(['a'], 'T1', 1000, 0);
    expect(marks.tokensFor(['a'], 999)).toEqual(['T1']);
    expect(marks.tokensFor(['a'], 1000)).toEqual([]);
    expect(marks.size).toBe(0);
  });

  it('settles every write naming any key that got a definite answer', () => {
    const marks = new InDoubtMarks();
    marks.add(['a', 'b'], 'T1', 1000, 0);
    marks.add(['c'], 'T2', 1000, 0);
    marks.settle(['b']);
    expect(marks.tokensFor(['a', 'b'], 1)).toEqual([]);
    expect(marks.tokensFor(['c'], 1)).toEqual(['T2']);
  });

  it('keeps a compensated write known for re-marks but no longer hands it to the compensator', () => {
    const marks = new InDoubtMarks();
    marks.add(['a'], 'T1', 1000, 0);
    marks.add(['b'], 'T2', 1000, 0);
    const [first] = marks.uncompensated(1);
    expect(first!.token).toBe('T1');
    first!.compensated = true;
    expect(marks.uncompensated(1).map((entry) => entry.token)).toEqual(['T2']);
    expect(marks.tokensFor(['a'], 1)).toEqual(['T1']);
  });

  it('is bounded: when full it sweeps expired writes first, then drops the oldest', () => {
    const marks = new InDoubtMarks(2);
    marks.add(['a'], 'T1', 5000, 0);
    marks.add(['b'], 'T2', 100, 0);
    marks.add(['c'], 'T3', 5000, 200);
    expect(marks.size).toBe(2);
    expect(marks.tokensFor(['a', 'b', 'c'], 200)).toEqual(['T1', 'T3']);
    marks.add(['d'], 'T4', 5000, 300);
    expect(marks.size).toBe(2);
    expect(marks.tokensFor(['a', 'c', 'd'], 300)).toEqual(['T3', 'T4']);
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(() => new InDoubtMarks(0)).toThrow(RangeError);
    expect(() => new InDoubtMarks(1.5)).toThrow(RangeError);
  });
});
