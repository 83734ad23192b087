/**
 * The rule every neutral id follows (button, select, form and field ids): non-empty, at most
 * `MAX_ID_LENGTH` characters, without `|` (adapters that carry a button's value inside its id,
 * like Discord's `custom_id`, use `|` as the separator). Builders throw `TypeError` otherwise.
 */
export const MAX_ID_LENGTH = 100;

/** Throws `TypeError` naming `what` when `id` breaks the id rule. */
export function checkId(id: unknown, what: string): string {
  if (typeof id !== 'string' || id.length === 0) {
    throw new TypeError(`${what} must be a non-empty string`);
  }
  if (id.includes('|'))
    throw new TypeError(`${what} must not contain "|" (got ${JSON.stringify(id)})`);
  if (id.length > MAX_ID_LENGTH) {
    throw new TypeError(`${what} must be at most ${MAX_ID_LENGTH} characters (got ${id.length})`);
  }
  return id;
}

/** Throws `TypeError` naming `what` unless `value` is a non-empty string. */
export function checkText(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${what} must be a non-empty string`);
  }
  return value;
}
