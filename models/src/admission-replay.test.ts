import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MODEL_LIMITS, replayScenario } from './admission-replay.js';
import {
  generateAdmissionScenario,
  type ModelStrategy,
  type ScenarioStep,
} from './admission-scenario.js';
import { parseJsonLines } from './lease-trace.js';
import { MODELS_DIR } from './spin.js';

const STRATEGIES: readonly ModelStrategy[] = ['queue', 'drop', 'burst'];
const DECISIONS: Record<number, string> = { 1: 'accepted', 2: 'duplicate', 3: 'rejected' };
const OUTCOMES: Record<number, string> = {
  1: 'completed',
  2: 'failed',
  3: 'dropped',
  4: 'superseded',
  5: 'shutdown',
};

/** The model's decision per delivery, and its outcome per accepted delivery. */
function modelVerdicts(steps: readonly ScenarioStep[]) {
  const decisions: string[] = [];
  const outcomes: string[][] = [];
  for (const step of steps) {
    if (step.op === 'decide') decisions[step.d] = DECISIONS[step.res] ?? `?${step.res}`;
    if (step.op === 'outcome' && step.o <= 5) outcomes[step.d] = [OUTCOMES[step.o] ?? `?${step.o}`];
  }
  return {
    decisions,
    outcomes: decisions.map((decision, d) => (decision === 'accepted' ? (outcomes[d] ?? []) : [])),
  };
}

const committed = readdirSync(join(MODELS_DIR, 'traces'))
  .filter((file) => file.startsWith('admission-'))
  .sort()
  .map((file) => ({
    name: file,
    strategy: file.split('-')[1] as ModelStrategy,
    steps: parseJsonLines<ScenarioStep>(readFileSync(join(MODELS_DIR, 'traces', file), 'utf8')),
  }));

const freshSeed = 1000 + Math.floor(Math.random() * 1_000_000);
const fresh = STRATEGIES.flatMap((strategy) =>
  [0, 1, 2, 3, 4, 5].map((offset) => ({
    name: `fresh ${strategy} seed ${freshSeed + offset}`,
    strategy,
    steps: generateAdmissionScenario(strategy, freshSeed + offset),
  })),
);

describe('model 2 scenarios replayed through createRuntime', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('commits scenarios for every strategy the model covers', () => {
    for (const strategy of STRATEGIES) {
      expect(committed.filter((trace) => trace.strategy === strategy).length).toBeGreaterThan(0);
    }
  });

  it.each([...committed, ...fresh])(
    'keeps the bound, rejects honestly and loses nothing in $name',
    async ({ strategy, steps }) => {
      const report = await replayScenario(strategy, steps);
      const model = modelVerdicts(steps);
      // One by one: every delivery's admission decision, every accepted delivery's outcome.
      expect(report.decisions).toEqual(model.decisions);
      expect(report.outcomes).toEqual(model.outcomes);
      // When shutdown resolved, every dispatched delivery had its decision and, if accepted,
      // its outcome (those still awaiting their dedupe mark included).
      expect(report.openAtResolve).toEqual([]);
      // docs/contract.md §4 invariant 1: the bound and the tenant ceiling are never exceeded.
      expect(report.maxInFlight).toBeLessThanOrEqual(MODEL_LIMITS.maxDetached);
      expect(report.maxPerTenant).toBeLessThanOrEqual(MODEL_LIMITS.maxDetachedPerTenant);
      // ... and a handler that never returns keeps its slot after shutdown.
      expect(report.slotsAfterShutdown).toBe(report.handlersStillRunning);
      // docs/contract.md §4 invariant 2: a rejected delivery is never marked.
      expect(report.marksDuringRejections).toBe(0);
      // docs/contract.md §4 invariant 3: admitted = sum of terminal outcomes, one per accepted delivery.
      expect(report.acceptedOutcomes).toBe(report.accepted);
      expect(report.finishedPerAccepted.every((count) => count === 1)).toBe(true);
      expect(report.finishedPerAccepted.length).toBe(report.accepted);
      expect(report.decisions.filter((decision) => decision === 'accepted').length).toBe(
        report.accepted,
      );
    },
  );
});
