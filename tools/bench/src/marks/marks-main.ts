/**
 * The marks benchmark process: argv[2] is JSON `MarksConfig`. In a fresh process (so nothing else
 * sits on the heap) it marks `count` unique dedupe keys, each built right before its mark as the
 * runtime builds one per delivery (so only the store holds it), and reads the heap after full GCs
 * before and after. For the memory State it then checks that a sample is still a duplicate 1 ms
 * before its TTL, moves the State's clock past the TTL and waits (bounded) until the sweeper has
 * reclaimed every mark. The baseline store is a plain `Map` from key to epoch-milliseconds expiry.
 * The result is sent as `{ type: 'result', ...MarksResult }` over IPC, then the process exits.
 */
import { installationMarkKey } from '@rt/core/state';
import { createMemoryState } from '@rt/state-memory';

/** Which store, how many marks, and for how long. */
export interface MarksConfig {
  readonly store: 'memory-state' | 'map';
  readonly count: number;
  readonly ttlMs: number;
}

/** Heap (`heapUsed` after `gc()`) and RSS (from the OS) at each step, in bytes. */
export interface MarksResult {
  readonly count: number;
  readonly heapBase: number;
  readonly rssBase: number;
  /** Every key marked, only the store holding the keys. */
  readonly heapLive: number;
  readonly rssLive: number;
  /** After the TTL passed and the sweeper reclaimed every mark (the baseline: cleared). */
  readonly heapSwept: number;
  /** Mean time to build a key and mark it (its promise awaited), microseconds. */
  readonly markUs: number;
  /** Marks the store reported live before the sweep, and after it. */
  readonly marksLive: number;
  readonly marksSwept: number;
  /** Whether a sample of keys was still a duplicate 1 ms before its TTL. */
  readonly duplicatesHeld: boolean;
}

const config = JSON.parse(process.argv[2] ?? '{}') as MarksConfig;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('marks-main needs --expose-gc');

function heap(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

/** The `index`-th key: `event:slack:T0ABCDE1234:Ev` and ten base-36 digits (37 characters). */
const keyOf = (index: number) =>
  installationMarkKey(
    'event',
    'slack',
    'T0ABCDE1234',
    `Ev${index.toString(36).toUpperCase().padStart(10, '0')}`,
  );

/** The store under measurement. */
interface Store {
  mark(key: string): Promise<boolean>;
  size(): number;
  expire(): Promise<void>;
}

let now = Date.now();
const state = createMemoryState({ now: () => now });
const map = new Map<string, number>();
const store: Store =
  config.store === 'memory-state'
    ? {
        mark: (key) => state.markEvent(key, config.ttlMs),
        size: () => state.stats().marks,
        async expire() {
          now += config.ttlMs + 2_000; // past the TTL and its bucket's deadline
          const deadline = performance.now() + 120_000;
          while (state.stats().marks > 0 && performance.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        },
      }
    : {
        async mark(key) {
          const expiresAt = map.get(key);
          if (expiresAt !== undefined && expiresAt > now) return false;
          map.set(key, now + config.ttlMs);
          return true;
        },
        size: () => map.size,
        async expire() {
          map.clear();
        },
      };

const heapBase = heap();
const rssBase = process.memoryUsage().rss;
const started = performance.now();
for (let index = 0; index < config.count; index += 1) {
  if (!(await store.mark(keyOf(index)))) throw new Error(`${keyOf(index)} already marked`);
}
const markUs = ((performance.now() - started) * 1000) / config.count;
const heapLive = heap();
const rssLive = process.memoryUsage().rss;
const marksLive = store.size();
now += config.ttlMs - 1;
let duplicatesHeld = true;
for (const index of [0, config.count >> 1, config.count - 1]) {
  duplicatesHeld &&= !(await store.mark(keyOf(index)));
}
now -= config.ttlMs - 1;
await store.expire();
const marksSwept = store.size();
const heapSwept = heap();
await state.close();

const result: MarksResult = {
  count: config.count,
  heapBase,
  rssBase,
  heapLive,
  rssLive,
  heapSwept,
  markUs,
  marksLive,
  marksSwept,
  duplicatesHeld,
};
process.send?.({ type: 'result', ...result }, () => process.exit(0));
