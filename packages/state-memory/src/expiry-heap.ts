/**
 * A binary min-heap of expiry deadlines: the sweeper's queue. Push, pop and removal of a given
 * item are O(log n); peeking at the earliest deadline is O(1). It never scans, so reclaiming
 * expired entries costs work in proportion to what is due, not to what is stored, and an entry
 * that goes away early (a released lock) takes its scheduled check with it at once.
 */

/** One scheduled expiry check: "look at `value` at `at` (epoch ms)". Also the handle for `remove`. */
export interface ExpiryItem<T> {
  readonly at: number;
  readonly value: T;
}

/** An item as the heap stores it: it knows its own position, so removal needs no search. */
interface Node<T> extends ExpiryItem<T> {
  /** Position in the heap array; -1 once popped, removed or cleared. */
  index: number;
}

/**
 * A node its owner allocates and keeps (an entry that is its own expiry check, so scheduling it
 * costs no object): `insert` sets `at` and `index`; `value` is what `popDue` hands back.
 */
export interface OwnedExpiryNode<T> {
  at: number;
  index: number;
  readonly value: T;
}

/** A min-heap ordered by `at`, earliest first. Ties come out in no particular order. */
export class ExpiryHeap<T> {
  readonly #items: Node<T>[] = [];

  /** How many items are scheduled. */
  get size(): number {
    return this.#items.length;
  }

  /** The earliest deadline, or `undefined` when empty. */
  peekAt(): number | undefined {
    return this.#items[0]?.at;
  }

  /** Schedules `value` for `at`; the returned item is the handle `remove` takes. */
  push(at: number, value: T): ExpiryItem<T> {
    const node: Node<T> = { at, value, index: this.#items.length };
    this.#items.push(node);
    this.#siftUp(node.index);
    return node;
  }

  /** Schedules an owner-kept `node` for `at` (it must not be scheduled already); `remove` takes it. */
  insert(node: OwnedExpiryNode<T>, at: number): void {
    node.at = at;
    node.index = this.#items.length;
    this.#items.push(node);
    this.#siftUp(node.index);
  }

  /** Removes and returns the earliest item when its deadline is at or before `now`. */
  popDue(now: number): ExpiryItem<T> | undefined {
    const first = this.#items[0];
    if (first === undefined || first.at > now) return undefined;
    this.#removeAt(0);
    return first;
  }

  /**
   * Unschedules `item` (a handle `push` returned) in O(log n). Returns false, changing nothing,
   * when it is no longer scheduled (popped, removed already, or cleared).
   */
  remove(item: ExpiryItem<T>): boolean {
    const node = item as Node<T>;
    if (node.index < 0 || this.#items[node.index] !== node) return false;
    this.#removeAt(node.index);
    return true;
  }

  /** Drops every item. */
  clear(): void {
    for (const node of this.#items) node.index = -1;
    this.#items.length = 0;
  }

  #removeAt(index: number): void {
    const items = this.#items;
    const removed = items[index]!;
    const last = items.pop()!;
    removed.index = -1;
    if (last === removed) return;
    items[index] = last;
    last.index = index;
    // The moved item may belong above or below its new place.
    this.#siftDown(index);
    this.#siftUp(last.index);
  }

  #siftUp(start: number): void {
    const items = this.#items;
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (items[parent]!.at <= items[index]!.at) break;
      this.#swap(index, parent);
      index = parent;
    }
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
    items[a]!.index = a;
    items[b]!.index = b;
  }
}
