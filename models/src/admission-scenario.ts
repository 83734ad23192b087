/**
 * The admission scenario format: one JSON object per line, what model 2
 * (`admission/admission.pml`) did in one random simulation: deliveries (scope, tenant, event id),
 * handler runs with their behaviour, settles, burst windows closing, and the shutdown phases.
 */
import { parseTagged, simulate } from './spin.js';

/** How a handler behaves (the model's choice when it ran). */
export type HandlerKind = 'complete' | 'fail' | 'ignore' | 'hang';

/** One step of an admission scenario. */
export type ScenarioStep =
  | {
      readonly op: 'dispatch';
      readonly d: number;
      readonly scope: number;
      readonly tenant: number;
      readonly id: number;
    }
  /** A handler started for the deliveries in `mask` (bit d = delivery d). */
  | { readonly op: 'run'; readonly mask: number; readonly kind: HandlerKind }
  /** That handler's promise settled (its outcome: the model's code, 1 completed ... 5 shutdown). */
  | { readonly op: 'settle'; readonly mask: number; readonly res: number }
  | { readonly op: 'window'; readonly scope: number }
  /** The awaited dedupe mark of delivery `d` answers (shutdown may have started before). */
  | { readonly op: 'mark'; readonly d: number }
  /**
   * The model's admission decision for `d`: 1 accepted, 2 duplicate, 3 rejected; a rejection's
   * `why`: 1 closed (shutdown), 2 the bound, 3 the tenant ceiling.
   */
  | { readonly op: 'decide'; readonly d: number; readonly res: number; readonly why?: number }
  /** The terminal outcome the model recorded for `d` (1 completed ... 7 duplicate). */
  | { readonly op: 'outcome'; readonly d: number; readonly o: number }
  | { readonly op: 'shutdown' }
  | { readonly op: 'grace' }
  | { readonly op: 'abandon' }
  | { readonly op: 'resolved' };

/** The strategies model 2 covers. */
export type ModelStrategy = 'queue' | 'drop' | 'burst';

const KINDS: Record<number, HandlerKind> = { 1: 'complete', 2: 'fail', 3: 'ignore', 4: 'hang' };

/** Turns the model's `SCEN ...` lines into steps; throws on anything it does not know. */
export function scenarioStepsOf(lines: readonly string[]): ScenarioStep[] {
  return parseTagged(lines, 'SCEN').map((record): ScenarioStep => {
    const num = (name: string): number => {
      const value = record[name];
      if (typeof value !== 'number') throw new Error(`scenario step ${record.op} lacks ${name}`);
      return value;
    };
    switch (record.op) {
      case 'dispatch':
        return {
          op: 'dispatch',
          d: num('d'),
          scope: num('scope'),
          tenant: num('tenant'),
          id: num('id'),
        };
      case 'run': {
        const kind = KINDS[num('kind')];
        if (kind === undefined) throw new Error(`unknown handler kind ${num('kind')}`);
        return { op: 'run', mask: num('mask'), kind };
      }
      case 'settle':
        return { op: 'settle', mask: num('mask'), res: num('res') };
      case 'window':
        return { op: 'window', scope: num('scope') };
      case 'mark':
        return { op: 'mark', d: num('d') };
      case 'decide':
        return record.why === undefined
          ? { op: 'decide', d: num('d'), res: num('res') }
          : { op: 'decide', d: num('d'), res: num('res'), why: num('why') };
      case 'outcome':
        return { op: 'outcome', d: num('d'), o: num('o') };
      case 'shutdown':
      case 'grace':
      case 'abandon':
      case 'resolved':
        return { op: record.op };
      default:
        throw new Error(`unknown scenario operation "${String(record.op)}"`);
    }
  });
}

/** Deliveries per generated scenario (more than the exhaustive check's 4). */
export const SCENARIO_DELIVERIES = 7;

/**
 * Simulates model 2 for `strategy` with `seed`. Shutdown waits for `seed % (D + 1)` dispatches
 * (simulation only), so scenarios spread shutdown over the whole run.
 */
export function generateAdmissionScenario(strategy: ModelStrategy, seed: number): ScenarioStep[] {
  return scenarioStepsOf(
    simulate({
      model: 'admission/admission.pml',
      seed,
      defines: {
        STRATEGY: strategy.toUpperCase(),
        D: SCENARIO_DELIVERIES,
        SIM_SHUTDOWN_AFTER: seed % (SCENARIO_DELIVERIES + 1),
      },
    }),
  );
}
