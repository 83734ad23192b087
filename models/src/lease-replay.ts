/**
 * Replays a model-1 trace against a real `State` and checks that every operation returns what
 * the model's State returned at that step, and that real fences rise whenever the model's do.
 */
import type { Lease, State } from '@rt/core';
import type { LeaseStep } from './lease-trace.js';

/** A State under test, with the means to follow the model's clock. */
export interface LeaseTarget {
  readonly name: string;
  readonly state: State;
  /** Milliseconds of `units` model time units, as passed to the State as a TTL. */
  ttlMs(units: number): number;
  /** The model's clock now reads `now` units. */
  advance(now: number): Promise<void>;
  /** The model's clock passed the expiry of the lease on `key`: it must be gone now. */
  expire(key: string): Promise<void>;
}

/** Thrown when the implementation answered differently from the model. */
export class TraceMismatchError extends Error {
  readonly code = 'TRACE_MISMATCH';
}

/**
 * Replays `steps` on `key`. Resolves with the number of State operations compared; rejects with
 * `TraceMismatchError` naming the first step where the implementation and the model differ.
 */
export async function replayLeaseTrace(
  steps: readonly LeaseStep[],
  target: LeaseTarget,
  key: string,
): Promise<number> {
  const leases = new Map<number, Lease>();
  let expiresAt: number | undefined;
  let lastFence = Number.NEGATIVE_INFINITY;
  let compared = 0;
  const fail = (index: number, step: LeaseStep, detail: string): never => {
    throw new TraceMismatchError(
      `${target.name}: step ${index} ${JSON.stringify(step)}: ${detail}`,
    );
  };
  const leaseOf = (index: number, step: LeaseStep & { tok: number }): Lease => {
    const lease = leases.get(step.tok);
    if (lease === undefined)
      return fail(index, step, `no lease was acquired for token ${step.tok}`);
    return lease;
  };
  for (const [index, step] of steps.entries()) {
    switch (step.op) {
      case 'tick':
        await target.advance(step.now);
        if (expiresAt !== undefined && step.now >= expiresAt) {
          await target.expire(key);
          expiresAt = undefined;
        }
        break;
      case 'acquire': {
        const lease = await target.state.acquireLock(key, target.ttlMs(step.ttl));
        compared += 1;
        if ((lease !== null) !== step.ok) {
          fail(index, step, `acquireLock returned ${lease === null ? 'null' : 'a lease'}`);
        }
        if (lease !== null) {
          if (!(lease.fence > lastFence)) {
            fail(index, step, `fence ${lease.fence} does not rise above ${lastFence}`);
          }
          lastFence = lease.fence;
          leases.set(step.tok, lease);
          expiresAt = step.now + step.ttl;
        }
        break;
      }
      case 'renew': {
        const renewed = await target.state.renewLock(leaseOf(index, step), target.ttlMs(step.ttl));
        compared += 1;
        if (renewed !== step.ok) fail(index, step, `renewLock returned ${renewed}`);
        if (renewed) expiresAt = step.now + step.ttl;
        break;
      }
      case 'release': {
        const released = await target.state.releaseLock(leaseOf(index, step));
        compared += 1;
        if (released !== step.ok) fail(index, step, `releaseLock returned ${released}`);
        if (released) expiresAt = undefined;
        break;
      }
    }
  }
  return compared;
}
