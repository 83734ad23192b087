import type { HandlerContext } from '@rt/core';
import { pause } from './deferred.js';

/**
 * Counts handler entries per delivery key (an Events API `event_id`, a command's text): the bot's
 * own record, compared with what the platform side saw. `slow(ms)` builds a handler that records
 * and then works for `ms`, stopping early (and throwing the reason) when its signal aborts.
 */
export class HandledLedger {
  readonly counts = new Map<string, number>();
  /** Handler bodies that finished (returned or threw). */
  finished = 0;

  record(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  get total(): number {
    let sum = 0;
    for (const count of this.counts.values()) sum += count;
    return sum;
  }

  /**
   * A handler: records `keyOf` of its event and of every event it is handed in `ctx.skipped`
   * (superseded on the way, seen by this survivor) and `ctx.batch` (burst members), then works
   * `ms` (abortable).
   */
  slow(ms: number, keyOf: (event: HandlerContext['event']) => string) {
    return async (ctx: HandlerContext): Promise<void> => {
      const seen = new Set([ctx.event, ...ctx.skipped, ...ctx.batch]);
      for (const event of seen) this.record(keyOf(event));
      try {
        await pause(ms, ctx.signal);
      } finally {
        this.finished += 1;
      }
    };
  }
}
