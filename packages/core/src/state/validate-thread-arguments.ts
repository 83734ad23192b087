/**
 * Argument checks of the conversation capabilities (`Subscriptions`, `FencedThreadState`). Like
 * the other State checks they throw `TypeError` for a wrong type and `RangeError` for a value out
 * of range, naming the argument.
 */
import { MAX_THREAD_STATE_BYTES } from './thread-capabilities.js';

/** Throws unless `fence` is a non-negative safe integer. */
export function assertFence(fence: unknown, name = 'fence'): asserts fence is number {
  if (typeof fence !== 'number')
    throw new TypeError(`${name} must be a number, got ${typeof fence}`);
  if (!Number.isSafeInteger(fence) || fence < 0) {
    throw new RangeError(`${name} must be a non-negative safe integer, got ${fence}`);
  }
}

/** Throws unless `version` is `undefined` or a non-negative safe integer. */
export function assertExpectedVersion(
  version: unknown,
  name = 'expectedVersion',
): asserts version is number | undefined {
  if (version === undefined) return;
  if (typeof version !== 'number') {
    throw new TypeError(`${name} must be a number or undefined, got ${typeof version}`);
  }
  if (!Number.isSafeInteger(version) || version < 0) {
    throw new RangeError(`${name} must be a non-negative safe integer, got ${version}`);
  }
}

/**
 * Throws unless `value` is a string of at most `MAX_THREAD_STATE_BYTES` UTF-8 bytes
 * (`RangeError` naming the size otherwise).
 */
export function assertThreadStateValue(value: unknown, name = 'value'): asserts value is string {
  if (typeof value !== 'string') {
    throw new TypeError(`${name} must be a serialised JSON string, got ${typeof value}`);
  }
  const bytes = utf8Length(value);
  if (bytes > MAX_THREAD_STATE_BYTES) {
    throw new RangeError(`${name} takes ${bytes} bytes, more than ${MAX_THREAD_STATE_BYTES}`);
  }
}

/** UTF-8 length of `text` (a lone surrogate counts 3 bytes, as the encoder writes U+FFFD). */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
