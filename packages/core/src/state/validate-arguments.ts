/**
 * Argument checks shared by every State operation. They throw `TypeError` for a wrong type and
 * `RangeError` for a value out of range, naming the argument and what it expected.
 */
import { isKeyOfInstallation, MAX_MARK_KEYS, markKeyInstallation } from './mark-keys.js';
import type { Lease } from './state.js';

/** Throws unless `key` is a non-empty string. */
export function assertKey(key: unknown, name = 'key'): asserts key is string {
  if (typeof key !== 'string' || key.length === 0) {
    throw new TypeError(`${name} must be a non-empty string, got ${describe(key)}`);
  }
}

/** Throws unless `ttlMs` is a positive safe integer (milliseconds). */
export function assertTtlMs(ttlMs: unknown, name = 'ttlMs'): asserts ttlMs is number {
  if (typeof ttlMs !== 'number') {
    throw new TypeError(`${name} must be a number of milliseconds, got ${describe(ttlMs)}`);
  }
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`${name} must be a positive integer of milliseconds, got ${ttlMs}`);
  }
}

/** Throws unless `timeoutMs` is a non-negative finite number (milliseconds). */
export function assertTimeoutMs(
  timeoutMs: unknown,
  name = 'timeoutMs',
): asserts timeoutMs is number {
  if (typeof timeoutMs !== 'number') {
    throw new TypeError(`${name} must be a number of milliseconds, got ${describe(timeoutMs)}`);
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new RangeError(`${name} must be a non-negative finite number, got ${timeoutMs}`);
  }
}

/**
 * Throws unless `keys` is a valid key list for `markEvents`: an array of 1 to `MAX_MARK_KEYS`
 * non-empty, distinct strings (`TypeError` for a wrong type, `RangeError` for a wrong count or a
 * repeated key). A list of two or more must name one installation: every key in the form
 * `<kind>:<adapter>:<tenant>:<rest>` with the same `<adapter>:<tenant>` (`RangeError` otherwise;
 * see `markKeyInstallation`). A single key may be any non-empty string, as for `markEvent`.
 */
export function assertMarkKeys(keys: unknown, name = 'keys'): asserts keys is readonly string[] {
  if (!Array.isArray(keys)) {
    throw new TypeError(`${name} must be an array of non-empty strings, got ${describe(keys)}`);
  }
  if (keys.length === 0 || keys.length > MAX_MARK_KEYS) {
    throw new RangeError(`${name} must hold 1 to ${MAX_MARK_KEYS} keys, got ${keys.length}`);
  }
  for (let index = 0; index < keys.length; index += 1) {
    const key: unknown = keys[index];
    // Checked here rather than by `assertKey`, so the argument's name is built only for the error.
    if (typeof key !== 'string' || key.length === 0) assertKey(key, `${name}[${index}]`);
    // At most 16 keys: comparing with the earlier ones is cheaper than a Set per call.
    if (keys.indexOf(key) < index) throw new RangeError(`${name}[${index}] repeats an earlier key`);
  }
  if (keys.length === 1) return;
  const installation = markKeyInstallation(keys[0] as string);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    if (installation !== undefined && isKeyOfInstallation(key, installation)) continue;
    const own = markKeyInstallation(key);
    throw new RangeError(
      `${name} must all name one installation as <kind>:<adapter>:<tenant>:<id> ` +
        `(installationMarkKey builds them); ${name}[${index}] ${
          own === undefined ? 'is not in that form' : 'names another installation'
        }`,
    );
  }
}

/** Throws unless `lease` looks like a `Lease` (non-empty `key` and `token`). */
export function assertLease(lease: unknown): asserts lease is Lease {
  if (typeof lease !== 'object' || lease === null) {
    throw new TypeError(`lease must be a Lease object, got ${describe(lease)}`);
  }
  const { key, token } = lease as Partial<Lease>;
  assertKey(key, 'lease.key');
  assertKey(token, 'lease.token');
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.length === 0 ? 'an empty string' : 'a string';
  if (value === null) return 'null';
  return typeof value;
}
