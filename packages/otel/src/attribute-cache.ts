import type { Attributes } from '@opentelemetry/api';

/** Most attribute sets one cache keeps; past it, sets are built per call (never unbounded). */
const MAX_ENTRIES = 4096;

/**
 * Frozen attribute sets reused across recordings, keyed by up to three label values, so a steady
 * stream of deliveries allocates no attribute objects. Every key part is a bounded label (adapter,
 * shape, outcome, reason, bounded tenant, notice name); the cache is capped regardless.
 */
export class AttributeCache {
  readonly #root = new Map<string, Map<string, Map<string, Attributes>>>();
  #size = 0;

  /** The set for `(a, b, c)`; `build` makes it the first time. Pass `''` for unused parts. */
  get(a: string, b: string, c: string, build: () => Attributes): Attributes {
    let level1 = this.#root.get(a);
    let level2 = level1?.get(b);
    const hit = level2?.get(c);
    if (hit) return hit;
    const made = Object.freeze(build());
    if (this.#size >= MAX_ENTRIES) return made;
    if (!level1) {
      level1 = new Map();
      this.#root.set(a, level1);
    }
    if (!level2) {
      level2 = new Map();
      level1.set(b, level2);
    }
    level2.set(c, made);
    this.#size += 1;
    return made;
  }
}
