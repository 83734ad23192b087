import { describe, expect, it } from 'vitest';
import { ExpiryHeap } from './expiry-heap.js';

describe('ExpiryHeap', () => {
  it('pops items in deadline order regardless of push order', () => {
    const heap = new ExpiryHeap<string>();
    const deadlines = [50, 10, 40, 30, 20, 60, 5, 45];
    for (const at of deadlines) heap.push(at, `k${at}`);
    const popped: number[] = [];
    for (let item = heap.popDue(100); item; item = heap.popDue(100)) popped.push(item.at);
    expect(popped).toEqual([...deadlines].sort((a, b) => a - b));
    expect(heap.size).toBe(0);
  });

  it('pops nothing that is not yet due', () => {
    const heap = new ExpiryHeap<string>();
    heap.push(10, 'a');
    heap.push(20, 'b');
    expect(heap.popDue(9)).toBeUndefined();
    expect(heap.popDue(10)?.value).toBe('a');
    expect(heap.popDue(19)).toBeUndefined();
    expect(heap.peekAt()).toBe(20);
    expect(heap.size).toBe(1);
  });

  it('keeps heap order under interleaved pushes and pops', () => {
    const heap = new ExpiryHeap<number>();
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % 1000;
    };
    let last = -1;
    for (let round = 0; round < 200; round += 1) {
      heap.push(last + 1 + next(), round);
      heap.push(last + 1 + next(), round);
      const item = heap.popDue(Number.POSITIVE_INFINITY)!;
      expect(item.at).toBeGreaterThanOrEqual(last);
      last = item.at;
    }
  });

  it('clear empties the heap', () => {
    const heap = new ExpiryHeap<string>();
    heap.push(1, 'a');
    heap.clear();
    expect(heap.size).toBe(0);
    expect(heap.peekAt()).toBeUndefined();
  });

  it('removes any scheduled item and keeps the rest in deadline order', () => {
    const heap = new ExpiryHeap<number>();
    let seed = 3;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % 10_000;
    };
    const items = Array.from({ length: 2000 }, (_, i) => heap.push(next(), i));
    const removed = items.filter((_, i) => i % 3 !== 0);
    for (const item of removed) expect(heap.remove(item)).toBe(true);
    expect(heap.size).toBe(items.length - removed.length);
    const popped: number[] = [];
    for (let item = heap.popDue(Infinity); item; item = heap.popDue(Infinity))
      popped.push(item.value);
    const kept = items.filter((_, i) => i % 3 === 0);
    expect([...popped].sort((a, b) => a - b)).toEqual(kept.map((item) => item.value));
    const ats = popped.map((value) => items[value]!.at);
    expect(ats).toEqual([...ats].sort((a, b) => a - b));
  });

  it('refuses to remove an item that was popped, removed or cleared, leaving the heap as it was', () => {
    const heap = new ExpiryHeap<string>();
    const a = heap.push(10, 'a');
    const b = heap.push(20, 'b');
    const c = heap.push(30, 'c');
    expect(heap.popDue(10)).toBe(a);
    expect(heap.remove(a)).toBe(false);
    expect(heap.remove(b)).toBe(true);
    expect(heap.remove(b)).toBe(false);
    expect(heap.size).toBe(1);
    heap.clear();
    expect(heap.remove(c)).toBe(false);
    const d = heap.push(5, 'd');
    expect(heap.remove(c)).toBe(false); // a stale handle never removes a newer item
    expect(heap.size).toBe(1);
    expect(heap.popDue(5)).toBe(d);
  });
});
