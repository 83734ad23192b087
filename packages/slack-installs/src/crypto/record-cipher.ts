import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { InstallationDecryptError } from '../errors.js';

/** One AES-256-GCM key of a store: an id written into every record it seals, and 32 key bytes. */
export interface EncryptionKey {
  /** Short id (letters, digits, `_`, `-`), written in clear into each record sealed with it. */
  readonly id: string;
  /** 32 bytes: a `Uint8Array`, or a string of them in base64 (`openssl rand -base64 32`). */
  readonly key: Uint8Array | string;
}

const VERSION = 'v1';
const ID = /^[A-Za-z0-9_-]{1,32}$/;

function keyBytes(key: EncryptionKey, index: number): Buffer {
  const bytes =
    typeof key.key === 'string' ? Buffer.from(key.key, 'base64') : Buffer.from(key.key ?? []);
  if (bytes.length !== 32) {
    throw new RangeError(`encryptionKeys[${index}].key must be 32 bytes (base64 or bytes)`);
  }
  return bytes;
}

/**
 * Seals and opens stored records with AES-256-GCM (`node:crypto`). The first key seals; every key
 * opens, so a rotation is: put the new key first, keep the old ones after it until every record
 * was rewritten (each write reseals with the first key), then drop them. A record is
 * `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url) and is bound to `context` (its storage key) as
 * additional data, so a record moved to another installation's slot does not open either.
 */
export class RecordCipher {
  readonly #sealing: { readonly id: string; readonly key: Buffer };
  readonly #keys: ReadonlyMap<string, Buffer>;

  /** Throws `TypeError`/`RangeError` naming `encryptionKeys` for no keys, bad ids, bad lengths. */
  constructor(keys: readonly EncryptionKey[]) {
    if (!Array.isArray(keys) || keys.length === 0) {
      throw new TypeError('encryptionKeys must be a non-empty array of { id, key }');
    }
    const map = new Map<string, Buffer>();
    for (const [index, key] of keys.entries()) {
      if (typeof key?.id !== 'string' || !ID.test(key.id)) {
        throw new TypeError(`encryptionKeys[${index}].id must be 1-32 of [A-Za-z0-9_-]`);
      }
      if (map.has(key.id)) throw new TypeError(`encryptionKeys[${index}].id repeats "${key.id}"`);
      map.set(key.id, keyBytes(key, index));
    }
    const first = keys[0] as EncryptionKey;
    this.#sealing = { id: first.id, key: map.get(first.id) as Buffer };
    this.#keys = map;
  }

  /** The id of the key new records are sealed with. */
  get currentKeyId(): string {
    return this.#sealing.id;
  }

  /** Seals `plaintext` for storage under `context`. */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#sealing.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, this.#sealing.id, iv, tag, body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /**
   * Opens a record sealed under `context`. Throws `InstallationDecryptError` when it is
   * malformed, names an unknown key, or fails authentication (altered, or another slot's).
   */
  open(sealed: string, context: string): string {
    const parts = typeof sealed === 'string' ? sealed.split('.') : [];
    if (parts.length !== 5 || parts[0] !== VERSION) {
      throw new InstallationDecryptError('stored record is not a sealed installation record');
    }
    const [, keyId, iv, tag, body] = parts as [string, string, string, string, string];
    const key = this.#keys.get(keyId);
    if (key === undefined) {
      throw new InstallationDecryptError(
        `stored record is sealed with key "${keyId}", which is not configured`,
        keyId,
      );
    }
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    try {
      // A short tag would weaken authentication: only full 16-byte tags and 12-byte IVs open.
      if (ivBytes.length !== 12 || tagBytes.length !== 16) throw new Error('bad lengths');
      const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: 16 });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tagBytes);
      const plain = Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]);
      return plain.toString('utf8');
    } catch {
      throw new InstallationDecryptError(
        `stored record failed authentication under key "${keyId}" (altered at rest)`,
        keyId,
      );
    }
  }
}
