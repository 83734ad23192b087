/**
 * The base of every rt error, in its own module so that the error modules can share it without
 * an import cycle (`errors.ts` re-exports everything here).
 */

/** Base class of every rt error. `code` is stable across releases. */
export class RtError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** True when `value` is an rt error with the given code (works across duplicated package copies). */
export function hasErrorCode(value: unknown, code: string): boolean {
  return typeof value === 'object' && value !== null && (value as { code?: unknown }).code === code;
}
