import type { Delivery } from './delivery.js';

/**
 * The deliveries inside a runner's strategy, as a list threaded through the delivery records
 * themselves (`livePrev`, `liveNext`): adding and removing one writes a few fields and allocates
 * nothing. A `Set` here cost a hash-table entry per delivery, and worse: V8 keeps a `Set`'s
 * replaced tables (and the deliveries in them) as they were when it rehashed, so once the table
 * lives in old space every scavenge kept the deliveries those dead tables pointed at, whole, and
 * promoted them (docs/benchmarks.md, ninth round). A removed delivery's links are cleared, so no
 * record points at another once it left.
 */
export class LiveDeliveries {
  #head: Delivery | undefined;
  #tail: Delivery | undefined;
  #size = 0;

  /** Deliveries in the list now. */
  get size(): number {
    return this.#size;
  }

  /** True while `delivery` is in the list. */
  has(delivery: Delivery): boolean {
    return delivery.livePrev !== undefined || this.#head === delivery;
  }

  /** Appends `delivery` (a no-op when it is in the list already). */
  add(delivery: Delivery): void {
    if (this.has(delivery)) return;
    const tail = this.#tail;
    delivery.livePrev = tail;
    delivery.liveNext = undefined;
    if (tail === undefined) this.#head = delivery;
    else tail.liveNext = delivery;
    this.#tail = delivery;
    this.#size += 1;
  }

  /** Removes `delivery` and clears its links (a no-op when it is not in the list). */
  delete(delivery: Delivery): void {
    if (!this.has(delivery)) return;
    const { livePrev, liveNext } = delivery;
    if (livePrev === undefined) this.#head = liveNext;
    else livePrev.liveNext = liveNext;
    if (liveNext === undefined) this.#tail = livePrev;
    else liveNext.livePrev = livePrev;
    delivery.livePrev = undefined;
    delivery.liveNext = undefined;
    this.#size -= 1;
  }

  /**
   * Calls `visit` for each delivery in the list now, in the order added, skipping one that left
   * before its turn (what `visit` itself may cause: an abort can end a delivery further along);
   * deliveries added meanwhile are not visited. For shutdown's rare passes: it copies the list.
   */
  forEach(visit: (delivery: Delivery) => void): void {
    const now: Delivery[] = [];
    for (let delivery = this.#head; delivery !== undefined; delivery = delivery.liveNext) {
      now.push(delivery);
    }
    for (const delivery of now) if (this.has(delivery)) visit(delivery);
  }
}
