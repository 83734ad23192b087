import { ThreadStateSerializationError, ThreadStateTooLargeError } from '../errors.js';
import { utf8Length } from '../state/validate-thread-arguments.js';

/**
 * Serialises a thread state value strictly: JSON as `JSON.stringify` writes it, except that what
 * it would silently change is refused with `ThreadStateSerializationError` (a top-level
 * `undefined`, a function or symbol anywhere, `undefined` in an array, a non-finite number, a
 * `bigint`, a cycle). An object property that is `undefined` is left out, as JSON does. A result
 * over `maxBytes` UTF-8 bytes throws `ThreadStateTooLargeError`. Runs before any State call.
 */
export function serialiseThreadState(value: unknown, maxBytes: number): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value, strictReplacer);
  } catch (error) {
    if (error instanceof ThreadStateSerializationError) throw error;
    throw new ThreadStateSerializationError(
      error instanceof Error ? error.message : String(error),
      { cause: error },
    );
  }
  if (json === undefined) {
    throw new ThreadStateSerializationError(`a top-level ${typeof value} is not JSON`);
  }
  const bytes = utf8Length(json);
  if (bytes > maxBytes) throw new ThreadStateTooLargeError(bytes, maxBytes);
  return json;
}

/** Parses a stored value; a corrupt one is a `ThreadStateSerializationError`. */
export function parseThreadState(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new ThreadStateSerializationError('the stored value is not JSON', { cause: error });
  }
}

function strictReplacer(this: unknown, key: string, value: unknown): unknown {
  switch (typeof value) {
    case 'function':
    case 'symbol':
      throw new ThreadStateSerializationError(`${where(key)} is a ${typeof value}`);
    case 'number':
      if (!Number.isFinite(value)) {
        throw new ThreadStateSerializationError(`${where(key)} is ${value}, not a finite number`);
      }
      return value;
    case 'undefined':
      if (Array.isArray(this)) {
        throw new ThreadStateSerializationError(`${where(key)} is undefined inside an array`);
      }
      return value;
    default:
      return value;
  }
}

function where(key: string): string {
  return key === '' ? 'the value' : `property "${key}"`;
}
