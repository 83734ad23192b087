import { modelAnswer } from '../bot/model.js';
import type { Invariant } from './invariants.js';

/**
 * One streamed reply as the platform's simulator holds it: the fake API's final text of the bot's
 * message answering delivery `id`, and the path the platform saw (`slack-stream` for a message
 * started with `chat.startStream`, `slack-update` for one posted and updated, `discord-edit`).
 */
export interface StreamedReply {
  /** `Slack` or `Discord`. */
  readonly platform: string;
  /** The delivery id the model's answer is seeded by (Slack `event_id`, Discord message id). */
  readonly id: string;
  readonly path: string;
  readonly text: string;
}

/** How a reply ended, read from its final text alone. */
export type ReplyEnd = 'completed' | 'interrupted' | 'failed' | 'half-written';

/** The texts a stream may end with besides the whole answer. */
export interface StreamMarkers {
  readonly interrupted: string;
  readonly error: string;
}

/** Everything the streamed-replies invariant reads. */
export interface StreamCheckInput {
  /** Every streamed reply, from the simulators' records (refusal texts excluded). */
  readonly replies: readonly StreamedReply[];
  /** `stream_finished` observations by `platform path status` (the bot's side). */
  readonly observed: ReadonlyMap<string, number>;
  /** How often the model saw its generator's `return()` before its end (the bot's side). */
  readonly modelStops: number;
  readonly markers: StreamMarkers;
}

/**
 * Classifies `text` against the answer the model gives `id`: `completed` when it is the whole
 * answer, `interrupted` (or `failed`) when it is a prefix of the answer (possibly empty or whole)
 * followed by the interrupted (or error) marker, `half-written` otherwise: a prefix without a
 * marker, a marker after the wrong text, or anything else.
 */
export function classifyReply(id: string, text: string, markers: StreamMarkers): ReplyEnd {
  const full = modelAnswer(id);
  if (text === full) return 'completed';
  for (const [end, marker] of [
    ['interrupted', markers.interrupted],
    ['failed', markers.error],
  ] as const) {
    if (text.endsWith(marker) && full.startsWith(text.slice(0, text.length - marker.length))) {
      return end;
    }
  }
  return 'half-written';
}

/** `a 3, b 1` of a count map, keys sorted; `none` when empty. */
export function listCounts(counts: ReadonlyMap<string, number>): string {
  const keys = [...counts.keys()].sort();
  return keys.length === 0 ? 'none' : keys.map((key) => `${key} ${counts.get(key)}`).join(', ');
}

/** The replies by `platform path end` (`classifyReply`): what the summary prints. */
export function countReplyEnds(
  replies: readonly StreamedReply[],
  markers: StreamMarkers,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const reply of replies) {
    const key = `${reply.platform} ${reply.path} ${classifyReply(reply.id, reply.text, markers)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * Every streamed reply ended with its full text or with the interrupted marker, none half-written
 * without one: each final text the platforms' fakes hold is checked against the text the seeded
 * model gives its delivery. Cross-checked with the bot's `stream_finished` observations (the
 * counts of each platform, path and status must be the platform's own), and with the model: it
 * saw `return()` at least once per reply cut short, and never more often than streams were
 * interrupted.
 */
export function streamedRepliesHonest(input: StreamCheckInput): Invariant {
  const seen = countReplyEnds(input.replies, input.markers);
  let halfWritten = 0;
  let cutShort = 0;
  let interrupted = 0;
  for (const reply of input.replies) {
    const end = classifyReply(reply.id, reply.text, input.markers);
    if (end === 'half-written') halfWritten += 1;
    if (end === 'interrupted') {
      interrupted += 1;
      const shown = reply.text.length - input.markers.interrupted.length;
      if (shown < modelAnswer(reply.id).length) cutShort += 1;
    }
  }
  const keys = new Set([...seen.keys(), ...input.observed.keys()]);
  const mismatched = [...keys].filter(
    (key) => (seen.get(key) ?? 0) !== (input.observed.get(key) ?? 0),
  );
  const stopsOk = cutShort <= input.modelStops && input.modelStops <= interrupted;
  return {
    name: 'every streamed reply ended whole or with the interrupted marker',
    passed: halfWritten === 0 && mismatched.length === 0 && stopsOk,
    detail:
      `the platforms hold ${input.replies.length} streamed replies: ${listCounts(seen)}; ` +
      `${halfWritten} half-written without a marker; stream_finished says ${listCounts(input.observed)}` +
      `${mismatched.length === 0 ? ' (the same)' : ` (differs: ${mismatched.join(', ')})`}; the model ` +
      `stopped ${input.modelStops} times (return() observed), ${cutShort} replies cut short`,
  };
}
