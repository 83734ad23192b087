/**
 * Where the State keeps things in Redis. Every Redis key of one State key carries that key as a
 * hash tag, with `%`, `{` and `}` percent-encoded (`%25`, `%7B`, `%7D`) so the tag is exactly the
 * encoded key, never empty and never cut short:
 *
 *   <prefix>{<key>}:mark    dedupe mark, value "1", expires after the mark's TTL
 *   <prefix>{<key>}:lock    lock holder's token, expires with the lease
 *   <prefix>{<key>}:fence   last fence issued for the lock, outlives the lease by fenceRetentionMs
 *   <prefix>lock-released   pub/sub channel; each message is a released lock's key (as given)
 *
 * So the lock and fence keys of one lock share a Redis Cluster slot (one script may touch both),
 * and different keys spread over slots. The prefix must not contain `{` or `}`.
 */

/** The Redis names of one State key. */
export interface KeyLayout {
  markKey(key: string): string;
  lockKey(key: string): string;
  fenceKey(key: string): string;
  readonly releaseChannel: string;
}

/** The layout under `prefix` (may be empty; validated by the options). */
export function keyLayout(prefix: string): KeyLayout {
  const tagged = (key: string) => `${prefix}{${encodeTag(key)}}`;
  return Object.freeze({
    markKey: (key: string) => `${tagged(key)}:mark`,
    lockKey: (key: string) => `${tagged(key)}:lock`,
    fenceKey: (key: string) => `${tagged(key)}:fence`,
    releaseChannel: `${prefix}lock-released`,
  });
}

/** Percent-encodes the three characters that would break or alias a hash tag. Injective. */
function encodeTag(key: string): string {
  return key.replace(/[%{}]/g, (char) => (char === '%' ? '%25' : char === '{' ? '%7B' : '%7D'));
}
