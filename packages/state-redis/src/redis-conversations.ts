/**
 * The conversation capabilities of the Redis State: thread subscriptions (`Subscriptions`) and
 * fenced thread state (`FencedThreadState`), each operation one command or one script on keys
 * tagged by the thread key (`key-layout.ts`), so one thread's keys share a Cluster slot.
 */
import type { ThreadStateRecord, ThreadStateWriteResult } from '@rt/core/state';
import {
  assertExpectedVersion,
  assertFence,
  assertKey,
  assertThreadStateValue,
  assertTtlMs,
} from '@rt/core/state';
import type { Connection } from './connection.js';
import type { KeyLayout } from './key-layout.js';
import { touchSubscriptionScript, writeThreadStateScript } from './scripts/scripts.js';

/** The scripts this module runs (read at construction by `createRedisState`). */
export const CONVERSATION_SCRIPTS = [touchSubscriptionScript, writeThreadStateScript] as const;

/**
 * - `subscribe`: `SET <sub key> <ttlMs> PX <ttlMs>` (the value is the TTL a touch renews).
 * - `unsubscribe`: `DEL`; `isSubscribed`: `EXISTS`.
 * - `touchSubscription`: `touch-subscription.lua` (GET, then PEXPIRE by the stored TTL).
 * - `readThreadState`: `HMGET v f n` of the state hash.
 * - `writeThreadState`: `write-thread-state.lua`, fence rule and version check in one step.
 * Failures reject with `StateUnavailableError` (never queued or re-sent; a command that reached
 * the server before a lost reply may have run). A failed write therefore either left the previous
 * record or, if it ran, stored the new one: never half of it.
 */
export class RedisConversations {
  readonly #connection: Connection;
  readonly #keys: KeyLayout;

  constructor(connection: Connection, keys: KeyLayout) {
    this.#connection = connection;
    this.#keys = keys;
  }

  async subscribe(threadKey: string, ttlMs: number): Promise<void> {
    assertKey(threadKey, 'threadKey');
    assertTtlMs(ttlMs);
    const key = this.#keys.subscriptionKey(threadKey);
    await this.#connection.run('subscribe', (client) => client.set(key, ttlMs, 'PX', ttlMs));
  }

  async unsubscribe(threadKey: string): Promise<boolean> {
    assertKey(threadKey, 'threadKey');
    const key = this.#keys.subscriptionKey(threadKey);
    return (await this.#connection.run('unsubscribe', (client) => client.del(key))) === 1;
  }

  async isSubscribed(threadKey: string): Promise<boolean> {
    assertKey(threadKey, 'threadKey');
    const key = this.#keys.subscriptionKey(threadKey);
    return (await this.#connection.run('isSubscribed', (client) => client.exists(key))) === 1;
  }

  async touchSubscription(threadKey: string): Promise<boolean> {
    assertKey(threadKey, 'threadKey');
    const key = this.#keys.subscriptionKey(threadKey);
    const reply = await this.#connection.run('touchSubscription', (client) =>
      touchSubscriptionScript.run(client, [key], []),
    );
    return reply === 1;
  }

  async readThreadState(threadKey: string): Promise<ThreadStateRecord | null> {
    assertKey(threadKey, 'threadKey');
    const key = this.#keys.threadStateKey(threadKey);
    const [value, fence, version] = await this.#connection.run('readThreadState', (client) =>
      client.hmget(key, 'v', 'f', 'n'),
    );
    if (value === null || value === undefined || fence == null || version == null) return null;
    return { value, fence: Number(fence), version: Number(version) };
  }

  async writeThreadState(
    threadKey: string,
    value: string,
    fence: number,
    ttlMs: number,
    expectedVersion?: number,
  ): Promise<ThreadStateWriteResult> {
    assertKey(threadKey, 'threadKey');
    assertThreadStateValue(value);
    assertFence(fence);
    assertTtlMs(ttlMs);
    assertExpectedVersion(expectedVersion);
    const key = this.#keys.threadStateKey(threadKey);
    const reply = (await this.#connection.run('writeThreadState', (client) =>
      writeThreadStateScript.run(
        client,
        [key],
        [value, fence, ttlMs, expectedVersion === undefined ? '' : expectedVersion],
      ),
    )) as [number, string | number, (string | number)?];
    if (reply[0] === 1) return { ok: true, version: Number(reply[1]) };
    return reply[1] === 'stale-fence'
      ? { ok: false, reason: 'stale-fence', fence: Number(reply[2]) }
      : { ok: false, reason: 'version-mismatch', version: Number(reply[2]) };
  }
}
