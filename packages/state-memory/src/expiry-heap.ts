/**
 * A binary min-heap of expiry deadlines: the sweeper's queue. Push and pop are O(log n); peeking
 * at the earliest deadline is O(1). It never scans, so reclaiming expired entries costs work in
 * proportion to what is due, not to what is stored.
 */

/** One scheduled expiry check: "look at `key` at `at` (epoch ms)". */
export interface ExpiryItem<T> {
  readonly at: number;
  readonly value: T;
}

/** A min-heap ordered by `at`, earliest first. Ties come out in no particular order. */
export class ExpiryHeap<T> {
  readonly #items: ExpiryItem<T>[] = [];

  /** How many items are scheduled. */
  get size(): number {
    return this.#items.length;
  }

  /** The earliest deadline, or `undefined` when empty. */
  peekAt(): number | undefined {
    return this.#items[0]?.at;
  }

  /** Schedules `value` for `at`. */
  push(at: number, value: T): void {
    const items = this.#items;
    items.push({ at, value });
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (items[parent]!.at <= items[index]!.at) break;
      this.#swap(index, parent);
      index = parent;
    }
  }

  /** Removes and returns the earliest item when its deadline is at or before `now`. */
  popDue(now: number): ExpiryItem<T> | undefined {
    const items = this.#items;
    const first = items[0];
    if (first === undefined || first.at > now) return undefined;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      this.#siftDown(0);
    }
    return first;
  }

  /** Drops every item. */
  clear(): void {
    this.#items.length = 0;
  }

  #siftDown(start: number): void {
    const items = this.#items;
    let index = start;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < items.length && items[left]!.at < items[smallest]!.at) smallest = left;
      if (right < items.length && items[right]!.at < items[smallest]!.at) smallest = right;
      if (smallest === index) return;
      this.#swap(index, smallest);
      index = smallest;
    }
  }

  #swap(a: number, b: number): void {
    const items = this.#items;
    const held = items[a]!;
    items[a] = items[b]!;
    items[b] = held;
  }
}
