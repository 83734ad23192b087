/**
 * The conversation capabilities of the memory State: thread subscriptions (`Subscriptions`) and
 * fenced thread state (`FencedThreadState`). Same model as the marks and locks: every operation
 * checks and writes without an `await`, so it is atomic on one JS thread; an entry is alive while
 * `now() < expiresAt`; expired entries are dropped when touched and by a bounded sweeper driven by
 * a min-heap of deadlines (one queued check per entry, `unref()`ed timer).
 */
import type { ThreadStateRecord, ThreadStateWriteResult } from '@rt/core/state';
import { ExpiryHeap, type ExpiryItem } from './expiry-heap.js';
import type { ResolvedMemoryStateOptions } from './options.js';

interface SubscriptionEntry {
  ttlMs: number;
  expiresAt: number;
  check?: ExpiryItem<Scheduled>;
}

interface RecordEntry {
  value: string;
  fence: number;
  version: number;
  expiresAt: number;
  check?: ExpiryItem<Scheduled>;
}

type Scheduled =
  | { readonly kind: 'sub'; readonly key: string; readonly entry: SubscriptionEntry }
  | { readonly kind: 'state'; readonly key: string; readonly entry: RecordEntry };

/** The stores behind the memory State's conversation capabilities (arguments already checked). */
export class MemoryConversations {
  readonly #options: ResolvedMemoryStateOptions;
  readonly #subscriptions = new Map<string, SubscriptionEntry>();
  readonly #records = new Map<string, RecordEntry>();
  readonly #expiries = new ExpiryHeap<Scheduled>();
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: ResolvedMemoryStateOptions) {
    this.#options = options;
  }

  /** Live and unswept entries: subscriptions, thread states. */
  get sizes(): { readonly subscriptions: number; readonly threadStates: number } {
    return { subscriptions: this.#subscriptions.size, threadStates: this.#records.size };
  }

  subscribe(key: string, ttlMs: number): void {
    const expiresAt = this.#options.now() + ttlMs;
    const held = this.#subscriptions.get(key);
    if (held !== undefined) {
      held.ttlMs = ttlMs;
      held.expiresAt = expiresAt; // its queued check reschedules itself
      return;
    }
    const entry: SubscriptionEntry = { ttlMs, expiresAt };
    this.#subscriptions.set(key, entry);
    this.#schedule({ kind: 'sub', key, entry });
  }

  unsubscribe(key: string): boolean {
    const live = this.#liveSubscription(key) !== undefined;
    this.#drop({ kind: 'sub', key });
    return live;
  }

  isSubscribed(key: string): boolean {
    return this.#liveSubscription(key) !== undefined;
  }

  touch(key: string): boolean {
    const entry = this.#liveSubscription(key);
    if (entry === undefined) return false;
    entry.expiresAt = this.#options.now() + entry.ttlMs;
    return true;
  }

  read(key: string): ThreadStateRecord | null {
    const entry = this.#liveRecord(key);
    return entry === undefined
      ? null
      : { value: entry.value, fence: entry.fence, version: entry.version };
  }

  write(
    key: string,
    value: string,
    fence: number,
    ttlMs: number,
    expectedVersion: number | undefined,
  ): ThreadStateWriteResult {
    const current = this.#liveRecord(key);
    if (current !== undefined && fence < current.fence) {
      return { ok: false, reason: 'stale-fence', fence: current.fence };
    }
    const version = current?.version ?? 0;
    if (expectedVersion !== undefined && expectedVersion !== version) {
      return { ok: false, reason: 'version-mismatch', version };
    }
    const expiresAt = this.#options.now() + ttlMs;
    const held = this.#records.get(key);
    if (held !== undefined) {
      Object.assign(held, { value, fence, version: version + 1, expiresAt });
    } else {
      const entry: RecordEntry = { value, fence, version: version + 1, expiresAt };
      this.#records.set(key, entry);
      this.#schedule({ kind: 'state', key, entry });
    }
    return { ok: true, version: version + 1 };
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#expiries.clear();
    this.#subscriptions.clear();
    this.#records.clear();
  }

  #liveSubscription(key: string): SubscriptionEntry | undefined {
    const entry = this.#subscriptions.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.#options.now()) return entry;
    this.#drop({ kind: 'sub', key });
    return undefined;
  }

  #liveRecord(key: string): RecordEntry | undefined {
    const entry = this.#records.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.#options.now()) return entry;
    this.#drop({ kind: 'state', key });
    return undefined;
  }

  /** Forgets the entry with its queued check. */
  #drop(item: { readonly kind: Scheduled['kind']; readonly key: string }): void {
    const map: Map<string, SubscriptionEntry | RecordEntry> =
      item.kind === 'sub' ? this.#subscriptions : this.#records;
    const entry = map.get(item.key);
    if (entry === undefined) return;
    map.delete(item.key);
    if (entry.check !== undefined) {
      this.#expiries.remove(entry.check);
      entry.check = undefined;
    }
  }

  #schedule(item: Scheduled): void {
    item.entry.check = this.#expiries.push(item.entry.expiresAt, item);
    this.#arm(this.#options.sweepIntervalMs);
  }

  #arm(delayMs: number): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#sweep();
    }, delayMs);
    this.#timer.unref();
  }

  /** One bounded tick: at most `sweepBatchSize` due checks, then re-arm while anything is queued. */
  #sweep(): void {
    const now = this.#options.now();
    for (let budget = this.#options.sweepBatchSize; budget > 0; budget -= 1) {
      const due = this.#expiries.popDue(now);
      if (due === undefined) break;
      const item = due.value;
      item.entry.check = undefined;
      if (item.entry.expiresAt > now) {
        item.entry.check = this.#expiries.push(item.entry.expiresAt, item);
      } else {
        this.#drop(item);
      }
    }
    const next = this.#expiries.peekAt();
    if (next !== undefined) this.#arm(next <= now ? 0 : this.#options.sweepIntervalMs);
  }
}
