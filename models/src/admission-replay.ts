/**
 * Replays a model-2 scenario through the runtime's public API (createRuntime, @rt/testing's test
 * adapter, @rt/state-memory) under vitest's fake timers. The replay holds each dedupe mark until
 * the model's mark step answers it (so shutdown lands in the prelude where the model's did), and
 * settles each handler the way the model's settled (returns, throws, or honours its abort). It
 * reports every admission decision and every accepted delivery's outcome (compared one by one
 * with the model's by the test), the bound seen at every observation, marks made during rejected
 * dispatches, what was still open when shutdown resolved, and the accounting after it.
 */
import {
  ACCEPTED_OUTCOMES,
  AdmissionRejectedError,
  createRuntime,
  type Observation,
  type Runtime,
  type State,
} from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter, type Deferred, deferred, stateWith } from '@rt/testing';
import { vi } from 'vitest';
import type { HandlerKind, ModelStrategy, ScenarioStep } from './admission-scenario.js';

/** The model's bound (MAX), tenant ceiling (CEIL) and burst maxBatch. */
export const MODEL_LIMITS = Object.freeze({ maxDetached: 3, maxDetachedPerTenant: 2, maxBatch: 2 });
const WINDOW_MS = 50;
const GRACE_MS = 100;
const ABANDON_MS = 100;

/** What one replay observed. */
export interface ScenarioReport {
  /** Dispatch results per delivery: accepted, duplicate, or rejected. */
  readonly decisions: readonly ('accepted' | 'duplicate' | 'rejected' | 'other' | 'pending')[];
  /** Per delivery, the accepted-delivery outcomes the runtime recorded for it. */
  readonly outcomes: readonly (readonly string[])[];
  /** Deliveries without a decision, or accepted without an outcome, when shutdown resolved. */
  readonly openAtResolve: readonly number[];
  /** Highest `detachedInFlight` and per-tenant count seen at any observation or step. */
  readonly maxInFlight: number;
  readonly maxPerTenant: number;
  /** markEvent calls made while a dispatch that ended rejected ran. */
  readonly marksDuringRejections: number;
  /** `stats().accepted` and the sum of accepted-delivery outcomes after shutdown resolved. */
  readonly accepted: number;
  readonly acceptedOutcomes: number;
  /** dispatch_finished observations per accepted delivery (each must be 1). */
  readonly finishedPerAccepted: readonly number[];
  /** Slots still held after shutdown, and handlers still running then (those that hang). */
  readonly slotsAfterShutdown: number;
  readonly handlersStillRunning: number;
}

const ACCEPTED: ReadonlySet<string> = new Set(ACCEPTED_OUTCOMES);

/** Replays `steps` with `strategy`. Call with fake timers installed (`vi.useFakeTimers()`). */
export async function replayScenario(
  strategy: ModelStrategy,
  steps: readonly ScenarioStep[],
): Promise<ScenarioReport> {
  const memory = createMemoryState();
  let marks = 0;
  /** Dedupe marks the runtime awaits, answered at the model's mark steps, in order. */
  const heldMarks: (() => void)[] = [];
  const state: State = stateWith(memory, (inner) => ({
    markEvent: (key, ttl) => {
      marks += 1;
      return new Promise<boolean>((resolve, reject) => {
        heldMarks.push(() => inner.markEvent(key, ttl).then(resolve, reject));
      });
    },
  }));
  const kinds = new Map<number, HandlerKind>();
  for (const step of steps) {
    if (step.op === 'run') kinds.set(lowestBit(step.mask), step.kind);
  }
  /** Per delivery, the gate its handler waits on: opened with the model's result when it settled. */
  const gates = new Map<number, Deferred<number>>();
  const gateOf = (d: number): Deferred<number> => {
    let found = gates.get(d);
    if (!found) {
      found = deferred<number>();
      gates.set(d, found);
    }
    return found;
  };
  let maxInFlight = 0;
  let maxPerTenant = 0;
  const finishedByText = new Map<string, number>();
  /** Accepted-delivery outcomes per Event Identity (`T<tenant>/ev-<id>`). */
  const outcomesByIdentity = new Map<string, string[]>();
  const admittedTexts: string[] = [];
  let running = 0;
  let runtime: Runtime | undefined;
  const sample = () => {
    if (!runtime) return;
    const stats = runtime.stats();
    maxInFlight = Math.max(maxInFlight, stats.detachedInFlight);
    for (const held of Object.values(stats.perTenantInFlight)) {
      maxPerTenant = Math.max(maxPerTenant, held);
    }
  };
  /** Event Identity (tenant, id) of an accepted delivery -> its text (`d<index>`). */
  const texts = new Map<string, string>();
  const observe = (observation: Observation) => {
    sample();
    if (observation.type === 'dispatch_finished' && ACCEPTED.has(observation.outcome)) {
      const identity = `${observation.event.tenant}/${observation.event.id}`;
      outcomesByIdentity.set(identity, [
        ...(outcomesByIdentity.get(identity) ?? []),
        observation.outcome,
      ]);
      const text = texts.get(identity) ?? identity;
      finishedByText.set(text, (finishedByText.get(text) ?? 0) + 1);
    }
  };
  const adapter = createTestAdapter({ name: 'model' });
  runtime = createRuntime({
    adapters: [adapter],
    state,
    dispatchMode: 'deferred',
    maxDetached: MODEL_LIMITS.maxDetached,
    maxDetachedPerTenant: MODEL_LIMITS.maxDetachedPerTenant,
    concurrency: { strategy, burstWindowMs: WINDOW_MS, maxBatch: MODEL_LIMITS.maxBatch },
    observers: [observe],
  });
  runtime.onMessage(async (ctx) => {
    // A burst batch's handler is the model's run of its lowest (earliest) member.
    const d = Number((ctx.batch[0] ?? ctx.event).text?.slice(1));
    running += 1;
    try {
      // It settles as the model's did: returns (1), throws (2), or honours its abort (5).
      const res = await gateOf(d).promise;
      if (res === 2) throw new Error(`handler of d${d} fails, as the model chose`);
      if (res === 5) throw ctx.signal.reason ?? new Error('aborted');
    } finally {
      running -= 1;
    }
  });
  const flush = () => vi.advanceTimersByTimeAsync(0);
  const decisions: ScenarioReport['decisions'][number][] = [];
  const identities: string[] = [];
  let marksDuringRejections = 0;
  let shutdown: Promise<void> | undefined;
  let openAtResolve: number[] | undefined;
  const watch = (pending: Promise<void>) => {
    pending.then(() => {
      // What the runtime still owed when it said shutdown was done.
      openAtResolve = identities.flatMap((identity, d) =>
        decisions[d] === 'pending' ||
        (decisions[d] === 'accepted' && !outcomesByIdentity.has(identity))
          ? [d]
          : [],
      );
    });
    return pending;
  };
  const sends: Promise<void>[] = [];
  for (const step of steps) {
    switch (step.op) {
      case 'dispatch': {
        const before = marks;
        const text = `d${step.d}`;
        const identity = `T${step.tenant}/ev-${step.id}`;
        identities[step.d] = identity;
        decisions[step.d] = 'pending';
        sends.push(
          adapter
            .send({
              id: `ev-${step.id}`,
              tenant: `T${step.tenant}`,
              channel: 'C1',
              thread: `scope-${step.scope}`,
              text,
            })
            .then(
              (result) => {
                decisions[step.d] =
                  result.status === 'accepted'
                    ? 'accepted'
                    : result.status === 'duplicate'
                      ? 'duplicate'
                      : 'other';
                if (result.status === 'accepted') {
                  admittedTexts.push(text);
                  texts.set(identity, text);
                }
              },
              (error: unknown) => {
                if (!(error instanceof AdmissionRejectedError)) throw error;
                decisions[step.d] = 'rejected';
                marksDuringRejections += marks - before;
              },
            ),
        );
        break;
      }
      case 'mark': {
        const answer = heldMarks.shift();
        if (answer === undefined) throw new Error(`d${step.d}: the runtime awaits no dedupe mark`);
        answer();
        break;
      }
      case 'decide':
      case 'outcome':
      case 'run':
      case 'resolved':
        break;
      case 'settle':
        gateOf(lowestBit(step.mask)).resolve(step.res);
        break;
      case 'window':
        await vi.advanceTimersByTimeAsync(WINDOW_MS);
        break;
      case 'shutdown':
        shutdown = watch(runtime.shutdown({ graceMs: GRACE_MS, abandonAfterMs: ABANDON_MS }));
        break;
      case 'grace':
        await vi.advanceTimersByTimeAsync(GRACE_MS);
        break;
      case 'abandon':
        await vi.advanceTimersByTimeAsync(ABANDON_MS);
        break;
    }
    await flush();
    sample();
  }
  // The model's simulation may stop before shutdown: handlers it did not settle complete now.
  if (shutdown === undefined) {
    for (const [d, kind] of kinds) if (kind !== 'hang') gateOf(d).resolve(1);
    shutdown = watch(runtime.shutdown({ graceMs: GRACE_MS, abandonAfterMs: ABANDON_MS }));
  }
  // Every timer has run after this advance; what is still unsettled then waits on nothing the
  // model does (a dedupe mark it never answers, a handler it never settles): a stall, reported
  // at once rather than left to the test's timeout.
  let ended: { error?: unknown } | undefined;
  Promise.all([shutdown, ...sends]).then(
    () => {
      ended = {};
    },
    (error: unknown) => {
      ended = { error };
    },
  );
  await vi.advanceTimersByTimeAsync(WINDOW_MS + GRACE_MS + ABANDON_MS);
  for (let turn = 0; turn < 100 && ended === undefined; turn += 1) await flush();
  if (ended === undefined) {
    const pending = decisions.flatMap((decision, d) => (decision === 'pending' ? [`d${d}`] : []));
    throw new Error(
      `the replay stalled: shutdown or a dispatch never settled (undecided: ${pending.join(', ') || 'none'}; dedupe marks awaited past the model's: ${heldMarks.length})`,
    );
  }
  if (ended.error !== undefined) throw ended.error;
  sample();
  const stats = runtime.stats();
  const acceptedOutcomes = Object.entries(stats.outcomes)
    .filter(([outcome]) => ACCEPTED.has(outcome))
    .reduce((sum, [, count]) => sum + (count ?? 0), 0);
  await memory.close();
  return {
    decisions,
    outcomes: identities.map((identity, d) =>
      decisions[d] === 'accepted' ? (outcomesByIdentity.get(identity) ?? []) : [],
    ),
    openAtResolve: openAtResolve ?? [],
    maxInFlight,
    maxPerTenant,
    marksDuringRejections,
    accepted: stats.accepted,
    acceptedOutcomes,
    finishedPerAccepted: identities.flatMap((identity, d) =>
      decisions[d] === 'accepted' ? [outcomesByIdentity.get(identity)?.length ?? 0] : [],
    ),
    slotsAfterShutdown: stats.detachedInFlight,
    handlersStillRunning: running,
  };
}

function lowestBit(mask: number): number {
  return Math.log2(mask & -mask);
}
