import { OTHER_TENANT } from './names.js';

/** Rejections a tenant must be guaranteed to have before it gets its own label. */
export const TENANT_LABEL_AFTER = 3;

/**
 * Bounds the `rt.tenant` label of a counter to `capacity` tenants plus `other`, giving labels to
 * the tenants that are hot, not merely first. Candidates are counted in a Space-Saving sketch of
 * `max(64, 8 * capacity)` entries (bounded memory whatever the tenant count; it surely keeps any
 * tenant with more than 1/size of the rejections); a tenant whose guaranteed
 * count (count minus the sketch's error) reaches `TENANT_LABEL_AFTER` is promoted while labels
 * are free. Labels are sticky: a cumulative counter's series never disappear, so relabelling
 * would grow the series count without bound. Until promoted, a tenant is counted as `other`.
 */
export class TenantLabels {
  readonly #capacity: number;
  readonly #sketchSize: number;
  readonly #labelled = new Set<string>();
  readonly #sketch = new Map<string, { count: number; error: number }>();

  constructor(capacity: number) {
    this.#capacity = capacity;
    this.#sketchSize = capacity === 0 ? 0 : Math.max(64, capacity * 8);
  }

  /** Counts one occurrence of `tenant` and returns the label to record it under. */
  labelOf(tenant: string): string {
    if (this.#labelled.has(tenant)) return tenant;
    if (this.#labelled.size >= this.#capacity || tenant === OTHER_TENANT) return OTHER_TENANT;
    const entry = this.#count(tenant);
    if (entry.count - entry.error >= TENANT_LABEL_AFTER) {
      this.#sketch.delete(tenant);
      this.#labelled.add(tenant);
      if (this.#labelled.size >= this.#capacity) this.#sketch.clear();
      return tenant;
    }
    return OTHER_TENANT;
  }

  #count(tenant: string): { count: number; error: number } {
    const known = this.#sketch.get(tenant);
    if (known) {
      known.count += 1;
      return known;
    }
    let entry = { count: 1, error: 0 };
    if (this.#sketch.size >= this.#sketchSize) {
      // Space-Saving: the newcomer replaces the smallest entry and inherits its count as error.
      let minKey: string | undefined;
      let min = Number.POSITIVE_INFINITY;
      for (const [key, value] of this.#sketch) {
        if (value.count < min) {
          min = value.count;
          minKey = key;
        }
      }
      if (minKey !== undefined) this.#sketch.delete(minKey);
      entry = { count: min + 1, error: min };
    }
    this.#sketch.set(tenant, entry);
    return entry;
  }
}

/**
 * The `count` largest entries of `perTenant` (keys `adapter:tenant`, each part URI-encoded, as in
 * `RuntimeStats.perTenantInFlight`), largest first, ties by key; plus the sum of the rest.
 */
export function hottestTenants(
  perTenant: Readonly<Record<string, number>>,
  count: number,
): {
  readonly top: { adapter: string; tenant: string; inFlight: number }[];
  readonly rest: number;
} {
  const entries = Object.entries(perTenant);
  entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const top: { adapter: string; tenant: string; inFlight: number }[] = [];
  let rest = 0;
  for (const [key, inFlight] of entries) {
    if (top.length >= count) {
      rest += inFlight;
      continue;
    }
    const colon = key.indexOf(':');
    top.push({
      adapter: decodePart(colon < 0 ? key : key.slice(0, colon)),
      tenant: decodePart(colon < 0 ? '' : key.slice(colon + 1)),
      inFlight,
    });
  }
  return { top, rest };
}

/** `decodeURIComponent`, or the part itself when it is not valid URI encoding. */
export function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
