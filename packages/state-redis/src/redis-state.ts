/**
 * `State` on Redis: dedupe marks and fenced Thread Lock leases shared by every instance that uses
 * the same Redis. Each operation is one atomic command or one Lua script.
 */
import { randomUUID } from 'node:crypto';
import type { Lease, State } from '@rt/core';
import { StateClosedError } from '@rt/core';
import type {
  FencedThreadState,
  LockWakeups,
  MultiKeyMark,
  Subscriptions,
  ThreadStateRecord,
  ThreadStateWriteResult,
} from '@rt/core/state';
import {
  assertKey,
  assertLease,
  assertMarkKeys,
  assertTimeoutMs,
  assertTtlMs,
  ReleaseWaiters,
} from '@rt/core/state';
import { type Connection, openConnection, type RedisClient } from './connection.js';
import { type KeyLayout, keyLayout } from './key-layout.js';
import { MarkWriter } from './mark-writer.js';
import {
  type RedisStateOptions,
  type ResolvedRedisStateOptions,
  resolveRedisStateOptions,
} from './options.js';
import { CONVERSATION_SCRIPTS, RedisConversations } from './redis-conversations.js';
import { ReleaseSubscriber } from './release-subscriber.js';
import {
  acquireScript,
  forgetMarksScript,
  markEventsScript,
  releaseScript,
  renewScript,
} from './scripts/scripts.js';

/**
 * A Redis `State` with the `LockWakeups`, `MultiKeyMark`, `Subscriptions` and `FencedThreadState`
 * capabilities.
 */
export interface RedisState
  extends State,
    LockWakeups,
    MultiKeyMark,
    Subscriptions,
    FencedThreadState {
  /**
   * The State's own command connection: created from `url`, or duplicated from the caller's
   * `client` (never the caller's client itself), with the fail-fast settings. For inspection and
   * metrics; the State quits it on `close()`, so do not quit or reconfigure it.
   */
  readonly client: RedisClient;
}

/**
 * Creates a State on Redis. It always runs its commands on a fail-fast connection it owns and
 * quits on close: made from `{ url }`, or `client.duplicate(...)` of `{ client }` (the caller's
 * client is never used, connected or quit by the State). `waitForRelease` opens one more
 * connection (pub/sub) on first use.
 *
 * - `markEvent`: `SET <mark key> <token> NX PX ttl`, a fresh `crypto.randomUUID()` token per
 *   mark (see `keyLayout`: an rt key's mark is tagged by its installation,
 *   `<prefix>{<adapter>:<tenant>}:mark:<key>`).
 * - `markEvents`: `mark-events.lua` over the same mark keys, all or nothing. The keys of one call
 *   name one installation (`assertMarkKeys`), so they share a Cluster slot.
 * - A mark whose reply is lost (timeout, dropped connection) rejects with `StateUnavailableError`
 *   and is remembered as in doubt (keys, token; bounded, until its TTL). A later mark of such a
 *   key runs `mark-events.lua` accepting that token as free, so the platform's retry on this
 *   instance is a first mark, not a duplicate; and a compensator (`forget-marks.lua`, sent right
 *   behind the failed mark, then after each successful mark and on reconnect until it succeeded)
 *   deletes the marks still holding the token, so a retry on another instance is a first mark. See the README, "Lost mark replies".
 * - `acquireLock`: `acquire.lua`, token from `crypto.randomUUID()`, fence strictly increasing per
 *   key (see `fenceRetentionMs`). `expiresAt` is measured from just before the command was sent, so
 *   it never overstates the lease.
 * - `renewLock` / `releaseLock`: `renew.lua` / `release.lua`, both compare the token first; a
 *   release is announced on `<prefix>lock-released` for `waitForRelease`.
 *
 * - Subscriptions and thread state: see `RedisConversations` (`redis-conversations.ts`); a thread
 *   state write is accepted only when its fence is at least the stored one.
 *
 * Failures: an unreachable server, a timeout past `commandTimeoutMs` or a server error reject
 * with `StateUnavailableError`. Nothing is queued while disconnected and nothing is re-sent after a
 * reconnect, so a failed operation is never sent again later; its command may still have run on
 * the server if it got there (reply lost, or a timeout while the connection stayed up). The
 * connection reconnects by itself and later operations succeed without recreating the State.
 * After `close()`
 * (idempotent) every operation rejects with `StateClosedError`. Bad arguments reject with
 * `TypeError`/`RangeError`; bad options throw them at once.
 */
export function createRedisState(options: RedisStateOptions): RedisState {
  const resolved = resolveRedisStateOptions(options);
  // Read the scripts now, so a broken build fails at construction rather than on first use.
  for (const script of [
    acquireScript,
    renewScript,
    releaseScript,
    markEventsScript,
    forgetMarksScript,
    ...CONVERSATION_SCRIPTS,
  ]) {
    void script.sha;
  }
  return new RedisStateImpl(resolved, openConnection(resolved));
}

class RedisStateImpl implements RedisState {
  readonly #options: ResolvedRedisStateOptions;
  readonly #connection: Connection;
  readonly #keys: KeyLayout;
  readonly #waiters = new ReleaseWaiters();
  readonly #subscriber: ReleaseSubscriber;
  readonly #marks: MarkWriter;
  readonly #conversations: RedisConversations;
  #closing: Promise<void> | undefined;

  constructor(options: ResolvedRedisStateOptions, connection: Connection) {
    this.#options = options;
    this.#connection = connection;
    this.#keys = keyLayout(options.prefix);
    this.#subscriber = new ReleaseSubscriber(
      connection.client,
      this.#keys.releaseChannel,
      this.#waiters,
    );
    this.#marks = new MarkWriter(connection, () => this.#closing !== undefined);
    this.#conversations = new RedisConversations(connection, this.#keys);
    connection.client.on('ready', () => this.#marks.compensate());
  }

  get client(): RedisClient {
    return this.#connection.client;
  }

  async markEvent(key: string, ttlMs: number): Promise<boolean> {
    assertKey(key);
    assertTtlMs(ttlMs);
    return await this.#marks.mark([this.#keys.markKey(key)], ttlMs, 'markEvent');
  }

  /**
   * `mark-events.lua`: `true` after marking every key, `false` (nothing written) when any is
   * alive. A failure rejects with `StateUnavailableError`; as for `markEvent`, the script is
   * never queued or re-sent, and one that reached the server before the failure may have run
   * there, marking every key or none: that write is then in doubt (see `createRedisState`).
   */
  async markEvents(keys: readonly string[], ttlMs: number): Promise<boolean> {
    assertMarkKeys(keys);
    assertTtlMs(ttlMs);
    return await this.#marks.mark(
      keys.map((key) => this.#keys.markKey(key)),
      ttlMs,
      'markEvents',
    );
  }

  async acquireLock(key: string, ttlMs: number): Promise<Lease | null> {
    assertKey(key);
    assertTtlMs(ttlMs);
    const token = randomUUID();
    const sentAt = Date.now();
    const fence = await this.#connection.run('acquireLock', (client) =>
      acquireScript.run(
        client,
        [this.#keys.lockKey(key), this.#keys.fenceKey(key)],
        [token, ttlMs, this.#options.fenceRetentionMs],
      ),
    );
    if (fence === null) return null;
    return Object.freeze({ key, token, fence: Number(fence), expiresAt: sentAt + ttlMs });
  }

  async renewLock(lease: Lease, ttlMs: number): Promise<boolean> {
    assertLease(lease);
    assertTtlMs(ttlMs);
    const reply = await this.#connection.run('renewLock', (client) =>
      renewScript.run(
        client,
        [this.#keys.lockKey(lease.key), this.#keys.fenceKey(lease.key)],
        [lease.token, ttlMs, this.#options.fenceRetentionMs],
      ),
    );
    return reply === 1;
  }

  async releaseLock(lease: Lease): Promise<boolean> {
    assertLease(lease);
    const reply = await this.#connection.run('releaseLock', (client) =>
      releaseScript.run(
        client,
        [this.#keys.lockKey(lease.key)],
        [lease.token, this.#keys.releaseChannel, lease.key],
      ),
    );
    return reply === 1;
  }

  /**
   * Resolves when `key` is released by any instance sharing this Redis (pub/sub), when its current
   * lease would lapse, at once when it is free, or after `timeoutMs`, whichever is first. A
   * wake-up is a hint: when Redis cannot be reached it resolves early and the caller's next
   * `acquireLock` reports the failure. Rejects with `signal.reason` on abort and with
   * `StateClosedError` when the State closes. The first call opens one subscriber connection.
   * Its timers and listeners are removed however it ends; aborting cancels only the wait.
   */
  async waitForRelease(key: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
    if (this.#closing !== undefined) throw new StateClosedError('redis', 'waitForRelease');
    assertKey(key);
    assertTimeoutMs(timeoutMs);
    if (!(signal instanceof AbortSignal)) throw new TypeError('signal must be an AbortSignal');
    signal.throwIfAborted();
    const waiting = this.#waiters.wait(key, timeoutMs, signal);
    let settled = false;
    let lapseTimer: NodeJS.Timeout | undefined;
    void this.#remainingLeaseMs(key).then((remainingMs) => {
      if (settled) return;
      if (remainingMs <= 0) {
        this.#waiters.wake(key);
      } else if (Number.isFinite(remainingMs)) {
        lapseTimer = setTimeout(() => this.#waiters.wake(key), remainingMs);
        lapseTimer.unref();
      }
    });
    try {
      await waiting;
    } finally {
      settled = true;
      clearTimeout(lapseTimer);
    }
  }

  subscribe(threadKey: string, ttlMs: number): Promise<void> {
    return this.#conversations.subscribe(threadKey, ttlMs);
  }

  unsubscribe(threadKey: string): Promise<boolean> {
    return this.#conversations.unsubscribe(threadKey);
  }

  isSubscribed(threadKey: string): Promise<boolean> {
    return this.#conversations.isSubscribed(threadKey);
  }

  touchSubscription(threadKey: string): Promise<boolean> {
    return this.#conversations.touchSubscription(threadKey);
  }

  readThreadState(threadKey: string): Promise<ThreadStateRecord | null> {
    return this.#conversations.readThreadState(threadKey);
  }

  writeThreadState(
    threadKey: string,
    value: string,
    fence: number,
    ttlMs: number,
    expectedVersion?: number,
  ): Promise<ThreadStateWriteResult> {
    return this.#conversations.writeThreadState(threadKey, value, fence, ttlMs, expectedVersion);
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#waiters.rejectAll(new StateClosedError('redis', 'waitForRelease'));
    await Promise.all([
      this.#subscriber.close(this.#options.commandTimeoutMs),
      this.#connection.close(),
    ]);
  }

  /** Subscribes, then reads the lock's remaining life: 0 when free or unknown, ms otherwise. */
  async #remainingLeaseMs(key: string): Promise<number> {
    try {
      if (!(await this.#subscriber.subscribed())) return 0;
      const pttl = await this.#connection.run('waitForRelease', (client) =>
        client.pttl(this.#keys.lockKey(key)),
      );
      if (pttl === -1) return Number.POSITIVE_INFINITY;
      return Math.max(pttl, 0);
    } catch {
      return 0;
    }
  }
}
