import { createPublicKey, type KeyObject } from 'node:crypto';

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Imports the application's public key (64 hex characters, as the Developer Portal shows it) as
 * an Ed25519 `KeyObject`, once, at construction. Throws `TypeError` naming `publicKey` when it is
 * not 32 bytes of hex.
 */
export function importPublicKey(hex: unknown): KeyObject {
  if (typeof hex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new TypeError('publicKey must be the application public key: 64 hex characters');
  }
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
}
