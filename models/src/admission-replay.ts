/**
 * Replays a model-2 scenario through the runtime's public API (createRuntime, @rt/testing's test
 * adapter, @rt/state-memory) under vitest's fake timers, and reports what the docs/contract.md §4 invariants
 * need: every admission decision, the bound seen at every observation, marks made during
 * rejected dispatches, and the accounting once shutdown resolved.
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
  readonly decisions: readonly ('accepted' | 'duplicate' | 'rejected' | 'other')[];
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
  const state: State = stateWith(memory, (inner) => ({
    markEvent: (key, ttl) => {
      marks += 1;
      return inner.markEvent(key, ttl);
    },
  }));
  const kinds = new Map<number, HandlerKind>();
  for (const step of steps) {
    if (step.op === 'run') kinds.set(lowestBit(step.mask), step.kind);
  }
  /** Per delivery, the gate its handler waits on: opened when the model's handler settled. */
  const gates = new Map<number, Deferred<void>>();
  const gateOf = (d: number): Deferred<void> => {
    let found = gates.get(d);
    if (!found) {
      found = deferred<void>();
      gates.set(d, found);
    }
    return found;
  };
  let maxInFlight = 0;
  let maxPerTenant = 0;
  const finishedByText = new Map<string, number>();
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
    const d = Number(ctx.event.text?.slice(1));
    const kind = kinds.get(d) ?? 'complete';
    running += 1;
    try {
      const aborted = new Promise<never>((_, reject) => {
        if (ctx.signal.aborted) reject(ctx.signal.reason);
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
      });
      aborted.catch(() => undefined);
      switch (kind) {
        case 'hang':
          await new Promise<never>(() => undefined);
          break;
        case 'ignore':
          await gateOf(d).promise;
          break;
        case 'complete':
          await Promise.race([gateOf(d).promise, aborted]);
          break;
        case 'fail':
          await Promise.race([gateOf(d).promise, aborted]);
          throw new Error(`handler of d${d} fails, as the model chose`);
      }
    } finally {
      running -= 1;
    }
  });
  const flush = () => vi.advanceTimersByTimeAsync(0);
  const decisions: ScenarioReport['decisions'][number][] = [];
  let marksDuringRejections = 0;
  let shutdown: Promise<void> | undefined;
  for (const step of steps) {
    switch (step.op) {
      case 'dispatch': {
        const before = marks;
        const text = `d${step.d}`;
        try {
          const result = await adapter.send({
            id: `ev-${step.id}`,
            tenant: `T${step.tenant}`,
            channel: 'C1',
            thread: `scope-${step.scope}`,
            text,
          });
          decisions[step.d] =
            result.status === 'accepted'
              ? 'accepted'
              : result.status === 'duplicate'
                ? 'duplicate'
                : 'other';
          if (result.status === 'accepted') {
            admittedTexts.push(text);
            texts.set(`T${step.tenant}/ev-${step.id}`, text);
          }
        } catch (error) {
          if (!(error instanceof AdmissionRejectedError)) throw error;
          decisions[step.d] = 'rejected';
          marksDuringRejections += marks - before;
        }
        break;
      }
      case 'run':
        break;
      case 'settle':
        gateOf(lowestBit(step.mask)).resolve();
        break;
      case 'window':
        await vi.advanceTimersByTimeAsync(WINDOW_MS);
        break;
      case 'shutdown':
        shutdown = runtime.shutdown({ graceMs: GRACE_MS, abandonAfterMs: ABANDON_MS });
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
  // Every handler the model did not settle (other than those that hang) finishes now.
  for (const [d, kind] of kinds) if (kind !== 'hang') gateOf(d).resolve();
  for (const d of admittedTexts.map((text) => Number(text.slice(1)))) {
    if (kinds.get(d) !== 'hang') gateOf(d).resolve();
  }
  shutdown ??= runtime.shutdown({ graceMs: GRACE_MS, abandonAfterMs: ABANDON_MS });
  await vi.advanceTimersByTimeAsync(WINDOW_MS + GRACE_MS + ABANDON_MS);
  await shutdown;
  sample();
  const stats = runtime.stats();
  const acceptedOutcomes = Object.entries(stats.outcomes)
    .filter(([outcome]) => ACCEPTED.has(outcome))
    .reduce((sum, [, count]) => sum + (count ?? 0), 0);
  await memory.close();
  return {
    decisions,
    maxInFlight,
    maxPerTenant,
    marksDuringRejections,
    accepted: stats.accepted,
    acceptedOutcomes,
    finishedPerAccepted: admittedTexts.map((text) => finishedByText.get(text) ?? 0),
    slotsAfterShutdown: stats.detachedInFlight,
    handlersStillRunning: running,
  };
}

function lowestBit(mask: number): number {
  return Math.log2(mask & -mask);
}
