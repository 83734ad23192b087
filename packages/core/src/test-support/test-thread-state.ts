import type {
  FencedThreadState,
  Subscriptions,
  ThreadStateRecord,
  ThreadStateWriteResult,
} from '../state/thread-capabilities.js';
import { TestState } from './test-state.js';

/** Which conversation operations should fail, and how. */
export interface ThreadFaults {
  subscribe?: () => Error | undefined;
  touchSubscription?: () => Error | undefined;
  unsubscribe?: () => Error | undefined;
  readThreadState?: () => Error | undefined;
  writeThreadState?: () => Error | undefined;
  /** Runs inside `writeThreadState` before its check: lets a test write in between. */
  beforeWrite?: () => void;
}

/**
 * A TestState with `Subscriptions` and `FencedThreadState`, every call recorded in `calls` and
 * faults injectable. Uses `Date.now()` (vitest fake timers drive it). Core's own tests only.
 */
export class ThreadTestState extends TestState implements Subscriptions, FencedThreadState {
  readonly subscriptions = new Map<string, { ttlMs: number; expiresAt: number }>();
  readonly records = new Map<string, ThreadStateRecord & { expiresAt: number }>();
  readonly threadFaults: ThreadFaults = {};

  async subscribe(threadKey: string, ttlMs: number): Promise<void> {
    this.calls.push(`subscribe ${threadKey}`);
    const fault = this.threadFaults.subscribe?.();
    if (fault) throw fault;
    this.subscriptions.set(threadKey, { ttlMs, expiresAt: Date.now() + ttlMs });
  }

  async unsubscribe(threadKey: string): Promise<boolean> {
    this.calls.push(`unsubscribe ${threadKey}`);
    const fault = this.threadFaults.unsubscribe?.();
    if (fault) throw fault;
    const live = this.#live(threadKey);
    this.subscriptions.delete(threadKey);
    return live !== undefined;
  }

  async isSubscribed(threadKey: string): Promise<boolean> {
    this.calls.push(`isSubscribed ${threadKey}`);
    return this.#live(threadKey) !== undefined;
  }

  async touchSubscription(threadKey: string): Promise<boolean> {
    this.calls.push(`touchSubscription ${threadKey}`);
    const fault = this.threadFaults.touchSubscription?.();
    if (fault) throw fault;
    const live = this.#live(threadKey);
    if (live === undefined) return false;
    live.expiresAt = Date.now() + live.ttlMs;
    return true;
  }

  async readThreadState(threadKey: string): Promise<ThreadStateRecord | null> {
    this.calls.push(`readThreadState ${threadKey}`);
    const fault = this.threadFaults.readThreadState?.();
    if (fault) throw fault;
    const record = this.records.get(threadKey);
    if (record === undefined || record.expiresAt <= Date.now()) return null;
    return { value: record.value, fence: record.fence, version: record.version };
  }

  async writeThreadState(
    threadKey: string,
    value: string,
    fence: number,
    ttlMs: number,
    expectedVersion?: number,
  ): Promise<ThreadStateWriteResult> {
    this.calls.push(`writeThreadState ${threadKey}`);
    const fault = this.threadFaults.writeThreadState?.();
    if (fault) throw fault;
    this.threadFaults.beforeWrite?.();
    const now = Date.now();
    const held = this.records.get(threadKey);
    const current = held !== undefined && held.expiresAt > now ? held : undefined;
    if (current !== undefined && fence < current.fence) {
      return { ok: false, reason: 'stale-fence', fence: current.fence };
    }
    const version = current?.version ?? 0;
    if (expectedVersion !== undefined && expectedVersion !== version) {
      return { ok: false, reason: 'version-mismatch', version };
    }
    this.records.set(threadKey, { value, fence, version: version + 1, expiresAt: now + ttlMs });
    return { ok: true, version: version + 1 };
  }

  #live(threadKey: string) {
    const entry = this.subscriptions.get(threadKey);
    return entry !== undefined && entry.expiresAt > Date.now() ? entry : undefined;
  }
}
