/**
 * The runner's live list replaced a `Set`: these pin what shutdown's passes relied on from it
 * (order kept, a delivery removed during a pass is not visited, removal from any place) and that
 * a removed delivery keeps no link to another.
 */
import { describe, expect, it } from 'vitest';
import { createTestAdapter, makeEvent } from '../test-support/test-adapter.js';
import { type Delivery, newDelivery } from './delivery.js';
import { LiveDeliveries } from './live-deliveries.js';

const adapter = createTestAdapter();

function delivery(id: string): Delivery {
  return newDelivery({
    event: makeEvent({ id }),
    handlers: [],
    adapter,
    mode: 'deferred',
    scopeKey: `test:T1:${id}`,
    slot: undefined,
  });
}

function ids(list: LiveDeliveries): string[] {
  const seen: string[] = [];
  list.forEach((d) => {
    seen.push(d.event.id);
  });
  return seen;
}

describe('LiveDeliveries', () => {
  it('keeps the order added and removes from the head, the middle and the tail', () => {
    const list = new LiveDeliveries();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(delivery) as [
      Delivery,
      Delivery,
      Delivery,
      Delivery,
    ];
    for (const item of [a, b, c, d]) list.add(item);
    expect(ids(list)).toEqual(['a', 'b', 'c', 'd']);
    expect(list.size).toBe(4);
    list.delete(b);
    expect(ids(list)).toEqual(['a', 'c', 'd']);
    list.delete(a);
    list.delete(d);
    expect(ids(list)).toEqual(['c']);
    expect(list.size).toBe(1);
    list.delete(c);
    expect(ids(list)).toEqual([]);
    expect(list.size).toBe(0);
    list.add(b);
    expect(ids(list)).toEqual(['b']);
  });

  it('ignores adding one twice and deleting one that is not in it', () => {
    const list = new LiveDeliveries();
    const a = delivery('a');
    const b = delivery('b');
    list.add(a);
    list.add(a);
    list.delete(b);
    expect(ids(list)).toEqual(['a']);
    expect(list.size).toBe(1);
    expect(list.has(a)).toBe(true);
    expect(list.has(b)).toBe(false);
  });

  it('clears a removed delivery’s links, so no record points at another once it left', () => {
    const list = new LiveDeliveries();
    const [a, b, c] = ['a', 'b', 'c'].map(delivery) as [Delivery, Delivery, Delivery];
    for (const item of [a, b, c]) list.add(item);
    list.delete(b);
    expect(b.livePrev).toBeUndefined();
    expect(b.liveNext).toBeUndefined();
    expect(a.liveNext).toBe(c);
    expect(c.livePrev).toBe(a);
    expect(list.has(b)).toBe(false);
  });

  it('skips, in a pass, a delivery removed before its turn and does not visit one added meanwhile', () => {
    const list = new LiveDeliveries();
    const [a, b, c] = ['a', 'b', 'c'].map(delivery) as [Delivery, Delivery, Delivery];
    for (const item of [a, b, c]) list.add(item);
    const late = delivery('late');
    const seen: string[] = [];
    list.forEach((d) => {
      seen.push(d.event.id);
      if (d === a) {
        list.delete(c); // an abort ending a delivery further along
        list.delete(a); // and the one visited
        list.add(late);
      }
    });
    expect(seen).toEqual(['a', 'b']);
    expect(ids(list)).toEqual(['b', 'late']);
  });
});
