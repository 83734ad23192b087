import { type KeyObject, verify } from 'node:crypto';
import { type Freshness, isFresh } from './freshness.js';

export type { Freshness } from './freshness.js';

/** Why a request failed verification (carried by the `signature_rejected` notice). */
export type SignatureFailure =
  | 'missing_headers'
  | 'malformed_signature'
  | 'malformed_timestamp'
  | 'stale_timestamp'
  | 'signature_mismatch';

/** The outcome of a signature check. */
export type SignatureCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: SignatureFailure };

const SIGNATURE_PATTERN = /^[0-9a-fA-F]{128}$/;
/** Discord sends a Unix timestamp in seconds; anything else is refused before the body is read. */
const TIMESTAMP_PATTERN = /^\d{1,15}$/;

/**
 * Checks the shape of `X-Signature-Ed25519` (128 hex characters: 64 bytes) and
 * `X-Signature-Timestamp` (decimal seconds) without reading the body, and, given `freshness`,
 * that the timestamp lies within `freshness.toleranceMs` of `freshness.nowMs` either way
 * (`stale_timestamp` otherwise; see `isFresh`). Without `freshness` no window is applied.
 */
export function checkSignatureHeaders(
  signature: string | null,
  timestamp: string | null,
  freshness?: Freshness | undefined,
): SignatureCheck {
  if (signature === null || timestamp === null) return { ok: false, reason: 'missing_headers' };
  if (!SIGNATURE_PATTERN.test(signature)) return { ok: false, reason: 'malformed_signature' };
  if (!TIMESTAMP_PATTERN.test(timestamp)) return { ok: false, reason: 'malformed_timestamp' };
  if (freshness !== undefined && !isFresh(timestamp, freshness)) {
    return { ok: false, reason: 'stale_timestamp' };
  }
  return { ok: true };
}

/**
 * Verifies a Discord interaction request: an Ed25519 signature by the application's key over the
 * timestamp header followed by the raw body, both as UTF-8 bytes. Header shape is checked first
 * (`checkSignatureHeaders`). Never throws.
 */
export function verifyDiscordSignature(input: {
  readonly key: KeyObject;
  readonly signature: string | null;
  readonly timestamp: string | null;
  readonly rawBody: string;
  /** The freshness window; omitted, a timestamp of any age passes. */
  readonly freshness?: Freshness | undefined;
}): SignatureCheck {
  const headers = checkSignatureHeaders(input.signature, input.timestamp, input.freshness);
  if (!headers.ok) return headers;
  const message = Buffer.from(`${input.timestamp}${input.rawBody}`, 'utf8');
  try {
    const valid = verify(null, message, input.key, Buffer.from(input.signature as string, 'hex'));
    return valid ? { ok: true } : { ok: false, reason: 'signature_mismatch' };
  } catch {
    return { ok: false, reason: 'signature_mismatch' };
  }
}
