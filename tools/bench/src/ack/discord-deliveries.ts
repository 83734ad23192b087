/**
 * Unique, correctly signed Discord interactions for load generators: one realistic button click
 * (built by `@rt/testing/discord`) with its interaction id and token replaced per delivery, signed
 * Ed25519 with a fixed benchmark key, the way Discord signs (`timestamp + body`).
 */
import { createPrivateKey, createPublicKey, type KeyObject, sign } from 'node:crypto';
import { buildButton } from '@rt/testing/discord';
import type { SignedDelivery } from './deliveries.js';

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows. */
const PKCS8_PREFIX = '302e020100300506032b657004220420';
/** The fixed seed of the benchmark key (not a secret: a benchmark fixture). */
const SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';

const PRIVATE_KEY: KeyObject = createPrivateKey({
  key: Buffer.from(PKCS8_PREFIX + SEED, 'hex'),
  format: 'der',
  type: 'pkcs8',
});

/** The benchmark key's public half, raw hex: the adapter's `publicKey`. */
export const BENCH_DISCORD_PUBLIC_KEY: string = (() => {
  const der = createPublicKey(PRIVATE_KEY).export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32).toString('hex');
})();

/** The benchmark key's public half as a `KeyObject` (the baseline verifies with it). */
export const BENCH_DISCORD_KEY_OBJECT: KeyObject = createPublicKey(PRIVATE_KEY);

/** The application id of every benchmark interaction. */
export const BENCH_DISCORD_APPLICATION_ID = '100000000000000001';

const ID = '111111111111111111';

/**
 * Returns a function producing the `n`-th interaction of a run (`run`, digits, keeps runs apart):
 * a button click with a unique snowflake id and token. Each costs one string build and one
 * Ed25519 signature in the caller's process.
 */
export function discordDeliveryFactory(run: string): (n: number) => SignedDelivery {
  const template = JSON.stringify(
    buildButton({ id: ID, token: `token-${ID}`, applicationId: BENCH_DISCORD_APPLICATION_ID }),
  );
  const parts = template.split(ID);
  if (parts.length < 3) throw new Error('template lacks placeholders');
  const prefix = `9${run.padStart(3, '0')}`;
  return (n) => {
    const id = `${prefix}${String(n).padStart(14, '0')}`;
    const body = parts.join(id);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(timestamp + body, 'utf8'), PRIVATE_KEY).toString(
      'hex',
    );
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-signature-ed25519': signature,
        'x-signature-timestamp': timestamp,
      },
    };
  };
}
