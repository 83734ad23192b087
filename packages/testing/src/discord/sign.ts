import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';

/** Headers Discord signs an interaction request with. */
export interface DiscordSignatureHeaders {
  readonly 'x-signature-ed25519': string;
  readonly 'x-signature-timestamp': string;
}

/** Options of `DiscordSigner.request`. */
export interface DiscordRequestOptions {
  /** Default `http://127.0.0.1/interactions`. */
  readonly url?: string;
  /** Epoch seconds of the signature. Default: now. */
  readonly timestamp?: number;
  /** Extra headers; they override the signature headers (to test malformed ones). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Send without any signature headers. */
  readonly unsigned?: boolean;
}

/** An Ed25519 key pair that signs requests the way Discord does. */
export interface DiscordSigner {
  /** The raw public key as 64 hex characters: the adapter's `publicKey`. */
  readonly publicKey: string;
  /**
   * Signs `body`: `x-signature-ed25519` is the hex Ed25519 signature of `timestamp + body` (UTF-8),
   * `x-signature-timestamp` the timestamp in epoch seconds (default now).
   */
  sign(body: string, timestamp?: number): DiscordSignatureHeaders;
  /**
   * A `Request` as Discord sends it: POST, `application/json`, signed. A payload object is
   * serialised with `JSON.stringify`; a string is sent as is (truncated JSON, ...).
   */
  request(payload: unknown, options?: DiscordRequestOptions): Request;
}

function rawPublicKey(key: KeyObject): string {
  const der = key.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32).toString('hex');
}

/**
 * Creates a signer with a freshly generated Ed25519 key pair. Two signers never share a key, so a
 * second one is the "wrong key" of verification tests.
 */
export function createDiscordSigner(): DiscordSigner {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const signBody = (body: string, timestamp?: number): DiscordSignatureHeaders => {
    const ts = String(timestamp ?? Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(`${ts}${body}`, 'utf8'), privateKey).toString('hex');
    return { 'x-signature-ed25519': signature, 'x-signature-timestamp': ts };
  };
  return {
    publicKey: rawPublicKey(publicKey),
    sign: signBody,
    request(payload, options = {}) {
      const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...(options.unsigned === true ? {} : signBody(body, options.timestamp)),
        ...options.headers,
      };
      return new Request(options.url ?? 'http://127.0.0.1/interactions', {
        method: 'POST',
        headers,
        body,
      });
    },
  };
}
