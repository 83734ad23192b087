/**
 * Replays a model-1 trace through the real lock code: one `LockManager` per lane (instance), each
 * taking the lock with `acquireWhenFree`, over one real `State`, under vitest's fake timers. The
 * replay stands between the lock managers and the State: a request the code sends waits until the
 * trace says the State applies it (then the real State runs it, and its answer must equal the
 * model's), and its answer reaches the code only when the trace says it arrives. Wake-ups reach a
 * lane only when the trace delivers one (a lost one never arrives: the poll timer must act).
 *
 * Compared, one by one: every State result (lease or none, true or false), every fence exactly
 * (model fence + the target's fence base), which lease each renew and release carries; and, per
 * model time unit, what each lane's code did by itself (acquire, renew and release requests,
 * aborts) against what the model's lane did, so a timer that fires at another time, an abort
 * that is missing or extra, a release sent after a loss, all fail the replay.
 */
import type { Lease, State } from '@rt/core';
import type { LockWakeups } from '@rt/core/state';
import { type Deferred, deferred } from '@rt/testing';
import { vi } from 'vitest';
import { acquireWhenFree } from '../../packages/core/src/locks/acquire-when-free.js';
import { type HeldLock, LockManager } from '../../packages/core/src/locks/lock-manager.js';
import { field, type LeaseStep } from './lease-trace.js';

/** Fake milliseconds per model time unit (the lock managers' TTL is 3 units: renew every unit). */
export const UNIT_MS = 300;
const TTL_UNITS = 3;

/** The real State under test, and how the replay reaches around it. */
export interface LeaseTarget {
  readonly name: string;
  readonly state: State;
  /** The TTL to pass the real State for the lock managers' `ttlMs` (Redis scales it up). */
  realTtlMs(ttlMs: number): number;
  /** Fence the real State issues for the model's fence 1, minus 1 (its seeded base). */
  readonly fenceBase: number;
  /** Checked after every granted acquire and renewal: the key's real TTL is the full lease. */
  checkTtl(key: string, units: number): Promise<void>;
  /** The model's clock reads `now`; the live lease (if any) expires at `expiresAt`. */
  tick(key: string, now: number, expiresAt: number | undefined): Promise<void>;
  /** The State loses the key (failover, eviction) while `lease` holds it. */
  lose(key: string, lease: Lease): Promise<void>;
}

/** Thrown when the code did something other than the model at some step. */
export class TraceMismatchError extends Error {
  readonly code = 'TRACE_MISMATCH';
}

type Kind = 'acquire' | 'renew' | 'release';

interface Pending {
  readonly kind: Kind;
  readonly args: readonly unknown[];
  readonly answer: Deferred<unknown>;
  result?: unknown;
}

interface Lane {
  readonly manager: LockManager;
  readonly requests: Pending[];
  readonly applied: Pending[];
  readonly waits: Deferred<void>[];
  lock: HeldLock | undefined;
  acquiring: Promise<void> | undefined;
}

/** What one replay compared. */
export interface LeaseReplayReport {
  readonly stateCalls: number;
  readonly laneEvents: number;
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const REQUEST: Record<Kind, string> = { acquire: 'acqreq', renew: 'renewreq', release: 'relreq' };

/**
 * Replays `steps` on `key`. Call with fake timers installed. Resolves with what was compared;
 * rejects with `TraceMismatchError` naming the first step where the code and the model differ.
 */
export async function replayLeaseTrace(
  steps: readonly LeaseStep[],
  target: LeaseTarget,
  key: string,
): Promise<LeaseReplayReport> {
  const lanes: Lane[] = [];
  const leases = new Map<number, Lease>();
  let current: Lease | undefined;
  let expiresAt: number | undefined;
  let now = 0;
  let stateCalls = 0;
  let laneEvents = 0;
  let expected: string[] = [];
  let actual: string[] = [];
  const fail = (index: number, detail: string): never => {
    throw new TraceMismatchError(
      `${target.name}: step ${index} ${JSON.stringify(steps[index])}: ${detail}`,
    );
  };
  const sync = (index: number) => {
    const want = [...expected].sort();
    const got = [...actual].sort();
    if (want.join() !== got.join()) {
      fail(index, `by time ${now} the model's lanes did [${want}], the code did [${got}]`);
    }
    laneEvents += want.length;
    expected = [];
    actual = [];
  };
  const laneOf = (inst: number): Lane => {
    while (lanes.length <= inst) lanes.push(newLane(lanes.length));
    return lanes[inst] as Lane;
  };
  function newLane(inst: number): Lane {
    const requests: Pending[] = [];
    const waits: Deferred<void>[] = [];
    const call = (kind: Kind, args: readonly unknown[]) => {
      actual.push(`${REQUEST[kind]}:${inst}`);
      const pending: Pending = { kind, args, answer: deferred<unknown>() };
      requests.push(pending);
      return pending.answer.promise;
    };
    const proxy: State & LockWakeups = {
      markEvent: () => Promise.reject(new Error('the lease replay marks nothing')),
      acquireLock: (lockKey, ttlMs) => call('acquire', [lockKey, ttlMs]) as Promise<Lease | null>,
      renewLock: (lease, ttlMs) => call('renew', [lease, ttlMs]) as Promise<boolean>,
      releaseLock: (lease) => call('release', [lease]) as Promise<boolean>,
      close: () => Promise.resolve(),
      waitForRelease: (_key, _timeoutMs, signal) => {
        const wait = deferred<void>();
        waits.push(wait);
        const onAbort = () => {
          const at = waits.indexOf(wait);
          if (at >= 0) waits.splice(at, 1);
          wait.reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        wait.promise.then(
          () => signal.removeEventListener('abort', onAbort),
          () => undefined,
        );
        return wait.promise;
      },
    };
    const manager = new LockManager(proxy, TTL_UNITS * UNIT_MS, () => undefined);
    return { manager, requests, applied: [], waits, lock: undefined, acquiring: undefined };
  }
  const take = (index: number, kind: Kind, from: Pending[]): Pending => {
    const at = from.findIndex((pending) => pending.kind === kind);
    if (at < 0) fail(index, `the code has no ${kind} request of this lane waiting for the State`);
    return from.splice(at, 1)[0] as Pending;
  };
  const leaseOfModel = (index: number, step: LeaseStep): Lease => {
    const lease = leases.get(field(step, 'tok'));
    if (lease === undefined) return fail(index, `no lease was granted for token ${step.tok}`);
    return lease;
  };

  for (const [index, step] of steps.entries()) {
    switch (step.op) {
      case 'tick': {
        await flush();
        sync(index);
        now = step.now;
        await target.tick(key, now, expiresAt);
        if (expiresAt !== undefined && now >= expiresAt) {
          expiresAt = undefined;
          current = undefined;
        }
        await vi.advanceTimersByTimeAsync(UNIT_MS);
        break;
      }
      case 'start': {
        const lane = laneOf(field(step, 'inst'));
        const signal = new AbortController().signal;
        lane.acquiring = acquireWhenFree(lane.manager, key, {
          initialMs: 2 * UNIT_MS,
          maxMs: 2 * UNIT_MS,
          random: () => 0,
          signal,
          observe: () => undefined,
        }).then((lock) => {
          lane.lock = lock;
          const aborted = () => actual.push(`abort:${step.inst}`);
          if (lock.signal.aborted) aborted();
          else lock.signal.addEventListener('abort', aborted, { once: true });
        });
        break;
      }
      case 'acqreq':
      case 'renewreq':
      case 'relreq':
        expected.push(`${step.op}:${step.inst}`);
        break;
      case 'abort':
        expected.push(`abort:${step.inst}`);
        break;
      case 'acquire': {
        const lane = laneOf(field(step, 'inst'));
        const pending = take(index, 'acquire', lane.requests);
        const [lockKey, ttlMs] = pending.args as [string, number];
        const lease = await target.state.acquireLock(lockKey, target.realTtlMs(ttlMs));
        stateCalls += 1;
        if ((lease !== null) !== (step.ok === 1)) {
          fail(index, `acquireLock returned ${lease === null ? 'null' : 'a lease'}`);
        }
        if (lease !== null) {
          const fence = target.fenceBase + field(step, 'fence');
          if (lease.fence !== fence) fail(index, `fence ${lease.fence}, the model's is ${fence}`);
          await target.checkTtl(lockKey, field(step, 'ttl'));
          leases.set(field(step, 'tok'), lease);
          current = lease;
          expiresAt = now + field(step, 'ttl');
        }
        pending.result = lease;
        lane.applied.push(pending);
        break;
      }
      case 'renew': {
        const lane = laneOf(field(step, 'inst'));
        const pending = take(index, 'renew', lane.requests);
        const [lease, ttlMs] = pending.args as [Lease, number];
        // A renewal carries the token it was sent with, in the model (lease.pml: `rTok[i]`) as in
        // the code, also when it lands after its lane gave the lease up: the same lease.
        if (lease.token !== leaseOfModel(index, step).token) {
          fail(index, 'the code renews another lease than the model');
        }
        const renewed = await target.state.renewLock(lease, target.realTtlMs(ttlMs));
        stateCalls += 1;
        if (renewed !== (step.ok === 1)) fail(index, `renewLock returned ${renewed}`);
        if (renewed) {
          await target.checkTtl(lease.key, field(step, 'ttl'));
          expiresAt = now + field(step, 'ttl');
        }
        pending.result = renewed;
        lane.applied.push(pending);
        break;
      }
      case 'release': {
        const lane = laneOf(field(step, 'inst'));
        const pending = take(index, 'release', lane.requests);
        const [lease] = pending.args as [Lease];
        if (lease.token !== leaseOfModel(index, step).token) {
          fail(index, 'the code releases another lease than the model');
        }
        const released = await target.state.releaseLock(lease);
        stateCalls += 1;
        if (released !== (step.ok === 1)) fail(index, `releaseLock returned ${released}`);
        if (released) {
          expiresAt = undefined;
          current = undefined;
        }
        pending.result = released;
        lane.applied.push(pending);
        break;
      }
      case 'acqans':
      case 'renewans':
      case 'relans': {
        const lane = laneOf(field(step, 'inst'));
        const kind: Kind =
          step.op === 'acqans' ? 'acquire' : step.op === 'renewans' ? 'renew' : 'release';
        const pending = take(index, kind, lane.applied);
        pending.answer.resolve(pending.result);
        await flush();
        break;
      }
      case 'ret': {
        const lane = laneOf(field(step, 'inst'));
        if (lane.lock === undefined) fail(index, 'the code holds no lock in this lane');
        void lane.lock?.release();
        lane.lock = undefined;
        await flush();
        break;
      }
      case 'wake': {
        const lane = laneOf(field(step, 'inst'));
        const wait = lane.waits.shift();
        if (wait === undefined) fail(index, 'the code is not waiting for a wake-up in this lane');
        wait?.resolve();
        await flush();
        break;
      }
      case 'lose': {
        if (current === undefined) fail(index, 'the model lost a key no lease holds');
        await target.lose(key, current as Lease);
        current = undefined;
        expiresAt = undefined;
        break;
      }
      case 'shutdown':
      case 'resolved':
        break;
    }
  }
  await flush();
  sync(steps.length - 1);
  return { stateCalls, laneEvents };
}
