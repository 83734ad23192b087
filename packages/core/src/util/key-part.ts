/**
 * A part of characters `encodeURIComponent` never escapes: letters, digits and `_.~-` (it leaves
 * `!*'()` alone too; a part with those takes the builtin, with the same result).
 */
const UNRESERVED = /^[\w.~-]*$/;

/**
 * `encodeURIComponent(part)`, returning `part` itself when it has nothing to escape (the common
 * case for platform ids): the same string, without the builtin's call and copy, which the
 * runtime's keys (dedupe mark, lock scope, tenant counter) paid about ten times per delivery.
 * Throws `URIError` like `encodeURIComponent` on a lone surrogate.
 */
export function keyPart(part: string): string {
  return UNRESERVED.test(part) ? part : encodeURIComponent(part);
}

/** The last installation `installationPart` built, and its result (one entry: no growth). */
let lastAdapter = '';
let lastTenant = '';
let lastPart = ':';

/**
 * `${keyPart(adapter)}:${keyPart(tenant)}`: the installation part of the runtime's keys (dedupe
 * mark, lock scope, tenant counter), which a delivery builds about five times. The last result is
 * kept, so the same installation again costs two string comparisons, not two escapes and a
 * concatenation. Throws `URIError` like `keyPart`.
 */
export function installationPart(adapter: string, tenant: string): string {
  if (adapter !== lastAdapter || tenant !== lastTenant) {
    const part = `${keyPart(adapter)}:${keyPart(tenant)}`;
    lastAdapter = adapter;
    lastTenant = tenant;
    lastPart = part;
  }
  return lastPart;
}
