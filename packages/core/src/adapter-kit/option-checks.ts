/**
 * Validation of one adapter option. Each check returns the value when it is valid and otherwise
 * throws naming the option, so an options resolver reads as one line per option.
 */

/** Returns `value` when it is a positive integer; throws `RangeError` naming `name` otherwise. */
export function checkPositiveInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/**
 * Returns `value` when it is a string with a non-blank character; throws `TypeError` naming `name`
 * otherwise (users see these texts, so an empty one is a mistake, not a choice).
 */
export function checkNonEmptyText(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new TypeError(`${name} must be a non-empty string`);
  }
  return value;
}

/**
 * Returns `value` when it is a non-null object (an adapter's options); throws `TypeError` naming
 * `factory` (`createSlackAdapter`, ...) otherwise.
 */
export function checkOptionsObject<T extends object>(factory: string, value: T): T {
  if (typeof value !== 'object' || value === null) {
    throw new TypeError(`${factory} needs an options object`);
  }
  return value;
}

/** Returns `value` when it parses as an absolute URL; throws `TypeError` naming `name` otherwise. */
export function checkAbsoluteUrl(name: string, value: unknown): string {
  if (typeof value === 'string' && URL.canParse(value)) return value;
  throw new TypeError(`${name} must be an absolute URL, got ${JSON.stringify(value)}`);
}
