import { randomUUID } from 'node:crypto';
import { StateUnavailableError } from '@rt/core';
import type { Connection } from './connection.js';
import { InDoubtMarks } from './in-doubt-marks.js';
import { forgetMarksScript, markEventsScript } from './scripts/scripts.js';

/**
 * Writes the State's dedupe marks, each with its own token, and keeps the marks whose reply was
 * lost from deduping away the platform's retry: it remembers them (`InDoubtMarks`), lets a later
 * mark of the same key take them back as its own, and deletes those still holding their token
 * once Redis answers again (the compensator), so a retry on another instance is accepted too.
 */
export class MarkWriter {
  readonly #connection: Connection;
  readonly #closing: () => boolean;
  readonly #inDoubt = new InDoubtMarks();
  #compensating = false;
  #compensateAgain = false;

  /** `closing`: true once the State closes (the compensator then stops). */
  constructor(connection: Connection, closing: () => boolean) {
    this.#connection = connection;
    this.#closing = closing;
  }

  /**
   * Marks `markKeys` with a fresh token: `SET NX` for a `markEvent` whose key is not in doubt,
   * else `mark-events.lua` accepting the in-doubt tokens of those keys. A definite answer settles
   * the keys' doubts; a `StateUnavailableError` after the command was handed to the client makes
   * this write in doubt (one that failed before, waiting for a connection, wrote nothing).
   */
  async mark(
    markKeys: readonly string[],
    ttlMs: number,
    operation: 'markEvent' | 'markEvents',
  ): Promise<boolean> {
    const token = randomUUID();
    const doubtTokens = this.#inDoubt.tokensFor(markKeys, Date.now());
    let sent = false;
    let marked: boolean;
    try {
      if (operation === 'markEvent' && doubtTokens.length === 0) {
        const reply = await this.#connection.run(operation, (client) => {
          sent = true;
          return client.set(markKeys[0]!, token, 'PX', ttlMs, 'NX');
        });
        marked = reply === 'OK';
      } else {
        const reply = await this.#connection.run(operation, (client) => {
          sent = true;
          return markEventsScript.run(client, markKeys, [ttlMs, token, ...doubtTokens]);
        });
        marked = reply === 1;
      }
    } catch (error) {
      if (sent && error instanceof StateUnavailableError) {
        this.#inDoubt.add(markKeys, token, ttlMs, Date.now());
        this.compensate();
      }
      throw error;
    }
    if (doubtTokens.length > 0) this.#inDoubt.settle(markKeys);
    this.compensate();
    return marked;
  }

  /**
   * Deletes, one script per in-doubt write, the marks that still hold its token, oldest first.
   * One run at a time; stops at the first failure (the next successful mark or reconnect starts
   * it again). An entry stays known after compensation until its TTL, so a late-running lost
   * write is still recognised as our own by a later mark on this State.
   */
  compensate(): void {
    if (this.#closing()) return;
    if (this.#compensating) {
      this.#compensateAgain = true;
      return;
    }
    const pending = this.#inDoubt.uncompensated(Date.now());
    if (pending.length === 0) return;
    this.#compensating = true;
    void (async () => {
      try {
        for (const entry of pending) {
          if (this.#closing()) return;
          await this.#connection.run('forgetMarks', (client) =>
            forgetMarksScript.run(client, entry.keys, [entry.token]),
          );
          entry.compensated = true;
        }
      } catch {
        // Unavailable or closed: the next successful mark or `ready` tries again.
        this.#compensateAgain = false;
      } finally {
        this.#compensating = false;
      }
      if (this.#compensateAgain) {
        this.#compensateAgain = false;
        this.compensate();
      }
    })();
  }
}
