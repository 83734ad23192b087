import { createRandom } from '../config/random.js';

/**
 * The demo's "model": a deterministic answer per delivery, streamed word by word. The words are
 * chosen by a seed derived from the delivery id alone, so the simulators recompute the full text
 * of any delivery from their own record (`modelAnswer(id)`) without asking the bot.
 */

const WORDS: readonly string[] = Object.freeze([
  'the',
  'burst',
  'queue',
  'bound',
  'held',
  'retry',
  'arrived',
  'later',
  'slots',
  'freed',
  'handlers',
  'answered',
  'each',
  'event',
  'once',
  'Slack',
  'waited',
  'while',
  'capacity',
  'returned',
  'and',
  'nothing',
  'was',
  'lost',
]);

/** Fewest and most words of one answer (well under Discord's 2000 characters). */
const MIN_WORDS = 12;
const MAX_WORDS = 36;

/** FNV-1a of a string: the model's seed for a delivery id. */
function seedOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The words the model answers delivery `id` with, in order (the first capitalised). */
export function modelWords(id: string): string[] {
  const random = createRandom(seedOf(id));
  const count = random.int(MIN_WORDS, MAX_WORDS);
  const words: string[] = [];
  for (let i = 0; i < count; i += 1) words.push(WORDS[random.int(0, WORDS.length - 1)] as string);
  const first = words[0] as string;
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return words;
}

/** The full text the model produces for delivery `id`: its words joined by spaces, then a full stop. */
export function modelAnswer(id: string): string {
  return `${modelWords(id).join(' ')}.`;
}

/** The chunks `streamModel` yields for `id`: the words with their separators; they join to `modelAnswer(id)`. */
export function modelChunks(id: string): string[] {
  const words = modelWords(id);
  return words.map((word, i) => `${i === 0 ? '' : ' '}${word}${i === words.length - 1 ? '.' : ''}`);
}

/** Waits `ms`, or less when `signal` aborts (never rejects: the stream decides what an abort means). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Streams the answer to delivery `id` over `spanMs`: the chunks of `modelChunks(id)` evenly spread
 * over it (the last at `spanMs`), like a model generating tokens, its waits cut short when `signal` aborts
 * (the model request stops with the handler). A consumer that stops pulling calls the generator's
 * `return()`; `onStopped` is called then (once), and never when the whole answer was yielded.
 */
export async function* streamModel(
  id: string,
  spanMs: number,
  signal: AbortSignal,
  onStopped: () => void,
): AsyncGenerator<string, void, undefined> {
  const chunks = modelChunks(id);
  const stepMs = spanMs / chunks.length;
  // Each chunk is due at a fixed time from the start: a busy event loop delays the answer by its
  // lag once, not once per chunk.
  const start = performance.now();
  let whole = false;
  try {
    for (let i = 0; i < chunks.length; i += 1) {
      const wait = start + (i + 1) * stepMs - performance.now();
      if (wait > 0 && !signal.aborted) await pause(wait, signal);
      yield chunks[i] as string;
    }
    whole = true;
  } finally {
    if (!whole) onStopped();
  }
}
