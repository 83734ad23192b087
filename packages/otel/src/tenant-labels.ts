import { OTHER_TENANT } from './names.js';

/**
 * Bounds the `rt.tenant` label of a counter: the first `capacity` distinct tenants keep their own
 * label for the life of the process, every later one is `other`. Sticky on purpose: a cumulative
 * counter's series never disappear, so relabelling would grow the series count without bound.
 * Memory is at most `capacity` entries.
 */
export class TenantLabels {
  readonly #capacity: number;
  readonly #labelled = new Set<string>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** The label to use for `tenant`. */
  labelOf(tenant: string): string {
    if (this.#labelled.has(tenant)) return tenant;
    if (this.#labelled.size < this.#capacity && tenant !== OTHER_TENANT) {
      this.#labelled.add(tenant);
      return tenant;
    }
    return OTHER_TENANT;
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
