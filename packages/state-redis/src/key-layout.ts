/**
 * Where the State keeps things in Redis. Every Redis key carries a hash tag, with `%`, `{` and `}`
 * percent-encoded (`%25`, `%7B`, `%7D`) so the tag is exactly the encoded text, never empty and
 * never cut short:
 *
 *   <prefix>{<installation>}:mark:<key>  dedupe mark of an rt key `<kind>:<adapter>:<tenant>:<id>`
 *                                        (the tag is its `<adapter>:<tenant>`), value: the
 *                                        mark write's random token,
 *                                        expires after the mark's TTL
 *   <prefix>{<key>}:mark                 dedupe mark of any other key, likewise
 *   <prefix>{<key>}:lock                 lock holder's token, expires with the lease
 *   <prefix>{<key>}:fence                last fence issued for the lock, outlives the lease by
 *                                        fenceRetentionMs
 *   <prefix>{<threadKey>}:sub            thread subscription, value: its TTL in ms, expires after it
 *   <prefix>{<threadKey>}:state          thread state, a hash (v value, f fence, n version),
 *                                        expires after its last write's TTL
 *   <prefix>lock-released                pub/sub channel; each message is a released lock's key
 *
 * So the lock and fence keys of one lock share a Redis Cluster slot (one script may touch both),
 * and so do all dedupe marks of one installation (one `markEvents` script marks several identities
 * of one delivery; `markEvent` and `markEvents` name the same Redis key for a key), and so do
 * one thread's subscription and state (tagged by the thread key). Locks spread over slots by key,
 * marks by installation, threads by thread. The prefix must not contain `{` or `}`.
 */
import { markKeyInstallation } from '@rt/core/state';

/** The Redis names of one State key. */
export interface KeyLayout {
  markKey(key: string): string;
  lockKey(key: string): string;
  fenceKey(key: string): string;
  subscriptionKey(threadKey: string): string;
  threadStateKey(threadKey: string): string;
  readonly releaseChannel: string;
}

/** The layout under `prefix` (may be empty; validated by the options). */
export function keyLayout(prefix: string): KeyLayout {
  const tagged = (key: string) => `${prefix}{${encodeTag(key)}}`;
  return Object.freeze({
    markKey: (key: string) => {
      const installation = markKeyInstallation(key);
      return installation === undefined
        ? `${tagged(key)}:mark`
        : `${tagged(installation)}:mark:${key}`;
    },
    lockKey: (key: string) => `${tagged(key)}:lock`,
    fenceKey: (key: string) => `${tagged(key)}:fence`,
    subscriptionKey: (threadKey: string) => `${tagged(threadKey)}:sub`,
    threadStateKey: (threadKey: string) => `${tagged(threadKey)}:state`,
    releaseChannel: `${prefix}lock-released`,
  });
}

/** Percent-encodes the three characters that would break or alias a hash tag. Injective. */
function encodeTag(key: string): string {
  return key.replace(/[%{}]/g, (char) => (char === '%' ? '%25' : char === '{' ? '%7B' : '%7D'));
}
