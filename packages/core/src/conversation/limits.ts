import { MessageLimitError } from '../errors.js';

/** Characters of `text` as platforms count them (Unicode code points, not UTF-16 units). */
export function lengthOf(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * Throws `MessageLimitError(platform, limit, path, max, actual)` when `actual > max`: renderers
 * call it for every documented limit before anything is sent.
 */
export function checkLimit(
  platform: string,
  limit: string,
  path: string,
  max: number,
  actual: number,
): void {
  if (actual > max) throw new MessageLimitError(platform, limit, path, max, actual);
}

/** `checkLimit` on the length of `text` (`undefined` passes). */
export function checkLength(
  platform: string,
  limit: string,
  path: string,
  max: number,
  text: string | undefined,
): void {
  if (text !== undefined) checkLimit(platform, limit, path, max, lengthOf(text));
}
