import { checkNonEmptyText, checkPositiveInteger } from '@rt/core/adapter';
import type { Redis } from 'ioredis';
import { type EncryptionKey, RecordCipher } from '../crypto/record-cipher.js';
import { InstallationStoreError } from '../errors.js';
import {
  botPartOf,
  type InstallationLookup,
  type InstallationStore,
  installationKeyOf,
  lookupOf,
  type SlackOAuthInstallation,
  userPartOf,
  withUser,
} from './installation-store.js';

/** Options of `createRedisInstallationStore`. */
export interface RedisInstallationStoreOptions {
  /**
   * The ioredis client to run commands on (not closed by the store). Give it fail-fast settings
   * (`enableOfflineQueue: false`, `maxRetriesPerRequest: 0`), so an outage fails calls at once
   * instead of queueing them; `commandTimeoutMs` bounds every call either way.
   */
  readonly client: Redis;
  /**
   * The AES-256-GCM keys: the first seals every write, all of them open reads. Rotate by putting
   * a new key first and keeping the old ones until their records were rewritten.
   */
  readonly encryptionKeys: readonly EncryptionKey[];
  /** Prefix of every Redis key. Default `rt:slack-installs:`. */
  readonly keyPrefix?: string;
  /** Longest wait for one Redis call before it fails with `InstallationStoreError`. Default 2000. */
  readonly commandTimeoutMs?: number;
}

/** Defaults of the optional settings. */
export const DEFAULT_REDIS_INSTALLATION_STORE_OPTIONS = Object.freeze({
  keyPrefix: 'rt:slack-installs:',
  commandTimeoutMs: 2000,
});

const RECORD_FIELD = 'installation';
const USER_FIELD = 'user:';

/**
 * An installation store in Redis, shared by every instance: one hash per installation
 * (`<prefix>{<T:team | E:enterprise>}`) holding the sealed bot record (`installation`) and one
 * sealed record per user token (`user:<id>`). Every field is sealed with AES-256-GCM and bound to
 * its key and field, so tokens are never at rest in clear and a record moved elsewhere does not
 * open. `store` is one `HSET`, `delete` one `DEL` or `HDEL`: nothing is ever half written.
 */
export class RedisInstallationStore implements InstallationStore {
  readonly #client: Redis;
  readonly #cipher: RecordCipher;
  readonly #prefix: string;
  readonly #timeoutMs: number;

  /** Validates at once: throws `TypeError`/`RangeError` naming the bad option. */
  constructor(options: RedisInstallationStoreOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError('createRedisInstallationStore needs an options object');
    }
    if (typeof options.client?.hset !== 'function') {
      throw new TypeError('client must be an ioredis client');
    }
    const d = DEFAULT_REDIS_INSTALLATION_STORE_OPTIONS;
    this.#client = options.client;
    this.#cipher = new RecordCipher(options.encryptionKeys);
    this.#prefix = checkNonEmptyText('keyPrefix', options.keyPrefix ?? d.keyPrefix);
    this.#timeoutMs = checkPositiveInteger(
      'commandTimeoutMs',
      options.commandTimeoutMs ?? d.commandTimeoutMs,
    );
  }

  /** The id of the key new writes are sealed with. */
  get currentKeyId(): string {
    return this.#cipher.currentKeyId;
  }

  #keyOf(lookup: InstallationLookup): string {
    return `${this.#prefix}{${installationKeyOf(lookup)}}`;
  }

  async #call<T>(what: string, run: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    signal?.throwIfAborted();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await new Promise<T>((resolve, reject) => {
        timer = setTimeout(
          () =>
            reject(new InstallationStoreError(`${what}: no answer within ${this.#timeoutMs} ms`)),
          this.#timeoutMs,
        );
        timer.unref?.();
        onAbort = () => reject(signal?.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        run().then(resolve, (error: unknown) =>
          reject(new InstallationStoreError(`${what} failed`, { cause: error })),
        );
      });
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    }
  }

  async store(installation: SlackOAuthInstallation, signal?: AbortSignal): Promise<void> {
    const key = this.#keyOf(lookupOf(installation));
    const fields: string[] = [
      RECORD_FIELD,
      this.#cipher.seal(JSON.stringify(botPartOf(installation)), `${key}#${RECORD_FIELD}`),
    ];
    const user = userPartOf(installation);
    if (user !== undefined) {
      const field = `${USER_FIELD}${user.id}`;
      fields.push(field, this.#cipher.seal(JSON.stringify(user), `${key}#${field}`));
    }
    await this.#call('storing an installation', () => this.#client.hset(key, ...fields), signal);
  }

  async fetch(
    lookup: InstallationLookup,
    signal?: AbortSignal,
  ): Promise<SlackOAuthInstallation | undefined> {
    const key = this.#keyOf(lookup);
    const userField = lookup.userId === undefined ? undefined : `${USER_FIELD}${lookup.userId}`;
    const [record, user] = await this.#call(
      'fetching an installation',
      () =>
        userField === undefined
          ? this.#client.hmget(key, RECORD_FIELD)
          : this.#client.hmget(key, RECORD_FIELD, userField),
      signal,
    );
    if (record === null || record === undefined) return undefined;
    const base = JSON.parse(
      this.#cipher.open(record, `${key}#${RECORD_FIELD}`),
    ) as SlackOAuthInstallation;
    if (userField === undefined || user === null || user === undefined) return base;
    return withUser(base, JSON.parse(this.#cipher.open(user, `${key}#${userField}`)));
  }

  async delete(lookup: InstallationLookup, signal?: AbortSignal): Promise<void> {
    const key = this.#keyOf(lookup);
    await this.#call(
      'deleting an installation',
      () =>
        lookup.userId === undefined
          ? this.#client.del(key)
          : this.#client.hdel(key, `${USER_FIELD}${lookup.userId}`),
      signal,
    );
  }
}

/** Creates a `RedisInstallationStore`; see its options. */
export function createRedisInstallationStore(
  options: RedisInstallationStoreOptions,
): RedisInstallationStore {
  return new RedisInstallationStore(options);
}
