import { randomUUID } from 'node:crypto';
import type { Lease, State } from '../state/state.js';
import { deferred } from './test-adapter.js';

/**
 * Which operations should fail, and how: checked on every call, after the call is recorded in
 * `calls`, so a test may set or clear a fault while the runtime holds the State. The operation
 * names are those of `@rt/testing`'s `stateWith` overrides. Core keeps this shape rather than a
 * private `stateWith` copy: its tests toggle faults mid-run and assert on the faulted calls in
 * `calls`, which a wrapper's override would hide from the inner State.
 */
export interface Faults {
  markEvent?: () => Error | undefined;
  markEvents?: () => Error | undefined;
  acquireLock?: () => Error | undefined;
  renewLock?: () => Error | boolean | undefined;
  releaseLock?: () => Error | undefined;
}

/**
 * A small, correct in-memory State for core's own tests, with fault injection. Uses `Date.now()`
 * so vitest fake timers drive its clock. (The published one is `@rt/state-memory`.)
 */
export class TestState implements State {
  readonly marks = new Map<string, number>();
  readonly locks = new Map<string, { token: string; fence: number; expiresAt: number }>();
  readonly faults: Faults = {};
  readonly calls: string[] = [];
  #fence = 0;

  async markEvent(key: string, ttlMs: number): Promise<boolean> {
    this.calls.push(`markEvent ${key}`);
    const fault = this.faults.markEvent?.();
    if (fault) throw fault;
    const expiresAt = this.marks.get(key);
    if (expiresAt !== undefined && expiresAt > Date.now()) return false;
    this.marks.set(key, Date.now() + ttlMs);
    return true;
  }

  async acquireLock(key: string, ttlMs: number): Promise<Lease | null> {
    this.calls.push(`acquireLock ${key}`);
    const fault = this.faults.acquireLock?.();
    if (fault) throw fault;
    const held = this.locks.get(key);
    if (held && held.expiresAt > Date.now()) return null;
    const lease = { key, token: randomUUID(), fence: ++this.#fence, expiresAt: Date.now() + ttlMs };
    this.locks.set(key, { token: lease.token, fence: lease.fence, expiresAt: lease.expiresAt });
    return lease;
  }

  async renewLock(lease: Lease, ttlMs: number): Promise<boolean> {
    this.calls.push(`renewLock ${lease.key}`);
    const fault = this.faults.renewLock?.();
    if (fault instanceof Error) throw fault;
    if (fault === false) return false;
    const held = this.locks.get(lease.key);
    if (!held || held.token !== lease.token || held.expiresAt <= Date.now()) return false;
    held.expiresAt = Date.now() + ttlMs;
    return true;
  }

  async releaseLock(lease: Lease): Promise<boolean> {
    this.calls.push(`releaseLock ${lease.key}`);
    const fault = this.faults.releaseLock?.();
    if (fault) throw fault;
    const held = this.locks.get(lease.key);
    if (!held || held.token !== lease.token) return false;
    this.locks.delete(lease.key);
    return true;
  }

  async close(): Promise<void> {}
}

/**
 * A TestState with the optional `MultiKeyMark` capability: `markEvents` checks and marks every
 * key in one synchronous section (all or nothing), in the same key space as `markEvent`.
 */
export class MultiMarkTestState extends TestState {
  async markEvents(keys: readonly string[], ttlMs: number): Promise<boolean> {
    this.calls.push(`markEvents ${keys.join(' ')}`);
    const fault = this.faults.markEvents?.();
    if (fault) throw fault;
    const now = Date.now();
    if (keys.some((key) => (this.marks.get(key) ?? 0) > now)) return false;
    for (const key of keys) this.marks.set(key, now + ttlMs);
    return true;
  }
}

/** A TestState whose releases wait for the test to let each one through (`gates`, in call order). */
export class GatedReleaseState extends TestState {
  readonly gates: (() => void)[] = [];

  override async releaseLock(lease: Lease): Promise<boolean> {
    const gate = deferred();
    this.gates.push(gate.resolve);
    await gate.promise;
    return super.releaseLock(lease);
  }
}
