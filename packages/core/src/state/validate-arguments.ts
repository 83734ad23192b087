/**
 * Argument checks shared by every State operation. They throw `TypeError` for a wrong type and
 * `RangeError` for a value out of range, naming the argument and what it expected.
 */
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
