import { ACCEPTED_OUTCOMES, type HandlerContext, type Observation } from '@rt/core';
import { DEFAULT_STREAM_OPTIONS } from '@rt/core/adapter';
import { pause } from './deferred.js';
import { HandledLedger } from './handled-ledger.js';

/** How each stream may end in a check; anything else is a violation. */
export type StreamEndStatus = 'completed' | 'interrupted' | 'failed' | 'unfinished';

/**
 * Which delivery outcomes (docs/contract.md §6) go with which way a stream ended. A stream whose
 * last write landed as the handler's signal aborted shows its whole text (`completed`), and its
 * delivery still takes the abort's outcome (core's rule: once the signal aborted, the outcome is
 * the abort's however the handler ended).
 */
const OUTCOMES_OF: Readonly<Record<StreamEndStatus, readonly string[]>> = {
  completed: ['completed', 'preempted', 'shutdown', 'timed-out'],
  interrupted: ['preempted', 'shutdown', 'timed-out'],
  failed: ['failed'],
  unfinished: ['preempted', 'shutdown', 'timed-out'],
};

/** The chunks a streaming handler of the suite replies with for `key`: deterministic. */
export function replyChunks(key: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${key}:${i} `);
}

/**
 * Records what the suite's streaming handlers were asked to show, and builds them: `handler`
 * records its delivery's key in `handled` (so the floods' accounting reads it), then `ctx.stream`s
 * `chunks` chunks, `gapMs` apart (the source ignores the handler's signal: the stream cancels
 * it), with the given stream options. `active`
 * and `peakActive` count streams in flight: each holds at most one bounded buffer
 * (docs/streaming.md), so the peak bounds the memory the streams hold.
 */
export class StreamLedger {
  /** Key (the delivery's id) to the full text its source yields. */
  readonly expected = new Map<string, string>();
  /** Handler entries per key. */
  readonly handled = new HandledLedger();
  active = 0;
  peakActive = 0;

  handler(options: {
    readonly keyOf: (event: HandlerContext['event']) => string;
    /** Chunks of each reply (per key, or the same for all). */
    readonly chunks: number | ((key: string) => number);
    readonly gapMs: number;
    readonly flushChars?: number;
    readonly flushIntervalMs?: number;
    /** Called once the stream is under way (its first chunk was yielded). */
    readonly onStarted?: (key: string) => void;
  }) {
    return async (ctx: HandlerContext): Promise<void> => {
      const key = options.keyOf(ctx.event);
      this.handled.record(key);
      const count = typeof options.chunks === 'number' ? options.chunks : options.chunks(key);
      const chunks = replyChunks(key, count);
      this.expected.set(key, chunks.join(''));
      const onStarted = options.onStarted;
      async function* source(): AsyncGenerator<string> {
        for (const [i, chunk] of chunks.entries()) {
          if (i > 0) await pause(options.gapMs);
          yield chunk;
          if (i === 0) onStarted?.(key);
        }
      }
      this.active += 1;
      this.peakActive = Math.max(this.peakActive, this.active);
      try {
        await ctx.stream(source(), {
          flushChars: options.flushChars ?? 40,
          flushIntervalMs: options.flushIntervalMs ?? 20,
        });
      } finally {
        this.active -= 1;
      }
    };
  }
}

/** What `checkStreams` counted. */
export interface StreamFigures {
  readonly streams: number;
  readonly byStatus: Readonly<Record<string, number>>;
  /** Writer calls the platform answered with its rate limit, over every stream. */
  readonly rateLimited: number;
  readonly writes: number;
}

/**
 * Checks, from the platform fake's record of each reply (`shown`: key to the reply's whole text,
 * its messages joined) against what each handler streamed (`ledger`), and from the observations:
 * - every accepted delivery's handler ran once and streamed once: one `stream_finished`;
 * - each reply shows the source's whole text (`completed`), or a prefix of it followed by the
 *   interrupted or error marker (`interrupted`, `failed`); never a part without a marker, never
 *   text the source did not yield; `unfinished` only where `allowed` says so;
 * - each `stream_finished` says what the fake shows, read at least what it shows, and agrees
 *   with its delivery's outcome (completed, or an abort's preempted / shutdown / timed-out);
 * - no stream ended in a status outside `allowed`;
 * - every rate-limit answer held the stream at least `minRetryAfterMs` (no tight retry loop):
 *   a stream's duration covers its rate-limited waits.
 */
export function checkStreams(input: {
  readonly ledger: StreamLedger;
  readonly shown: ReadonlyMap<string, string>;
  readonly observations: readonly Observation[];
  readonly allowed: readonly StreamEndStatus[];
  /** Least wait a rate-limit answer imposes (Slack: 1000, whole seconds); 0 to skip. */
  readonly minRetryAfterMs?: number;
}): { violations: string[]; figures: StreamFigures } {
  const { ledger, shown, observations, allowed } = input;
  const violations: string[] = [];
  const { interruptedMarker, errorMarker } = DEFAULT_STREAM_OPTIONS;
  const finished = new Map<string, Extract<Observation, { type: 'stream_finished' }>[]>();
  const outcomes = new Map<string, string>();
  for (const o of observations) {
    if (o.type === 'stream_finished') {
      finished.set(o.event.id, [...(finished.get(o.event.id) ?? []), o]);
    } else if (
      o.type === 'dispatch_finished' &&
      (ACCEPTED_OUTCOMES as readonly string[]).includes(o.outcome)
    ) {
      outcomes.set(o.event.id, o.outcome);
    }
  }
  const byStatus: Record<string, number> = {};
  let rateLimited = 0;
  let writes = 0;
  for (const id of outcomes.keys()) {
    const count = ledger.handled.counts.get(id) ?? 0;
    if (count !== 1) {
      violations.push(`accepted delivery ${id} ran its handler ${count} times`);
    }
  }
  for (const [key, full] of ledger.expected) {
    const ends = finished.get(key) ?? [];
    if (ends.length !== 1) {
      violations.push(`stream ${key} has ${ends.length} stream_finished observations`);
      continue;
    }
    const end = ends[0]!;
    byStatus[end.status] = (byStatus[end.status] ?? 0) + 1;
    rateLimited += end.rateLimited;
    writes += end.writes;
    if (!allowed.includes(end.status)) violations.push(`stream ${key} ended ${end.status}`);
    const outcome = outcomes.get(key);
    if (outcome === undefined || !OUTCOMES_OF[end.status].includes(outcome)) {
      violations.push(`stream ${key} ended ${end.status} but its delivery's outcome is ${outcome}`);
    }
    const text = shown.get(key);
    const marker =
      end.status === 'interrupted'
        ? interruptedMarker
        : end.status === 'failed'
          ? errorMarker
          : undefined;
    if (text === undefined) {
      // Nothing posted: only an end that could not land (unfinished) may leave no message.
      if (end.status !== 'unfinished')
        violations.push(`stream ${key} (${end.status}) shows no reply`);
    } else if (end.status === 'completed') {
      if (text !== full)
        violations.push(`stream ${key} completed but shows ${JSON.stringify(text)}`);
    } else if (marker !== undefined) {
      const body = text.endsWith(marker) ? text.slice(0, -marker.length) : undefined;
      if (body === undefined || !full.startsWith(body)) {
        violations.push(`stream ${key} ${end.status} shows ${JSON.stringify(text)} (no marker)`);
      } else if (end.chars < body.length) {
        violations.push(`stream ${key} shows ${body.length} chars but read ${end.chars}`);
      }
    } else if (!full.startsWith(text)) {
      violations.push(`stream ${key} unfinished shows text its source never yielded`);
    }
    const least = input.minRetryAfterMs ?? 0;
    // Each rate-limit answer held the next call at least its Retry-After (timers may fire up to a
    // millisecond early: 2 ms of slack per wait).
    if (least > 0 && end.durationMs + 2 * end.rateLimited < end.rateLimited * least) {
      violations.push(
        `stream ${key} was rate-limited ${end.rateLimited} times in ${end.durationMs} ms`,
      );
    }
  }
  for (const key of finished.keys()) {
    if (!ledger.expected.has(key)) violations.push(`stream_finished for ${key} without a handler`);
  }
  return {
    violations,
    figures: { streams: ledger.expected.size, byStatus, rateLimited, writes },
  };
}

/**
 * Each Slack reply's whole text, keyed by the `event_id` of the suite's flood (`SlackFlood`
 * gives event `Ev000123` the ts `1800000000.000123` and the reply is in its thread): the texts
 * of the bot's messages in that thread, in posting order.
 */
export function slackReplies(
  messages: readonly { readonly threadTs: string | undefined; readonly text: string }[],
): Map<string, string> {
  const replies = new Map<string, string>();
  for (const message of messages) {
    if (message.threadTs === undefined || !message.threadTs.startsWith('1800000000.')) continue;
    const key = `Ev${message.threadTs.slice('1800000000.'.length)}`;
    replies.set(key, (replies.get(key) ?? '') + message.text);
  }
  return replies;
}
