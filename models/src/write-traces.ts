/**
 * Regenerates the committed traces in `models/traces/` from fixed seeds:
 * `pnpm --filter @rt/models traces`. The lease seeds are chosen (the first seeds from 1 up) so
 * that the committed traces cover a stale release against a live successor, a key loss with a
 * refused renewal, a lost wake-up, and renewals; the admission seeds so that each strategy's
 * scenarios cover a rejection by the bound, one by the tenant ceiling, a duplicate, and shutdown
 * landing while a delivery awaits its dedupe mark. The tests replay these and fresh ones too.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateAdmissionScenario, type ScenarioStep } from './admission-scenario.js';
import {
  coverageOf,
  formatJsonLines,
  generateLeaseTrace,
  type LeaseCoverage,
} from './lease-trace.js';
import { MODELS_DIR } from './spin.js';

/** What each committed lease trace must show. */
const WANTED: readonly ((c: LeaseCoverage) => boolean)[] = [
  (c) => c.staleReleaseAgainstSuccessor > 0,
  (c) => c.keyLosses > 0 && c.refusedRenewals > 0,
  (c) => c.lostWakeups > 0,
  (c) => c.renewals >= 6 && c.takeovers > 0,
];

let seed = 1;
for (const [index, wanted] of WANTED.entries()) {
  for (; ; seed++) {
    if (seed > 5000) throw new Error(`no lease trace ${index + 1} below seed 5000`);
    const steps = generateLeaseTrace(seed);
    if (!wanted(coverageOf(steps))) continue;
    writeFileSync(join(MODELS_DIR, 'traces', `lease-${index + 1}.jsonl`), formatJsonLines(steps));
    console.log(`lease-${index + 1}.jsonl: seed ${seed}`, coverageOf(steps));
    seed++;
    break;
  }
}
/** What the committed admission scenarios of each strategy must show, one scenario each. */
const WANTED_ADMISSION: readonly ((steps: readonly ScenarioStep[]) => boolean)[] = [
  (steps) => steps.some((step) => step.op === 'decide' && step.why === 2), // the bound
  (steps) => steps.some((step) => step.op === 'decide' && step.why === 3), // the tenant ceiling
  (steps) => steps.some((step) => step.op === 'decide' && step.res === 2), // a duplicate
  // shutdown while a delivery awaits its dedupe mark
  (steps) => {
    const shutdownAt = steps.findIndex((step) => step.op === 'shutdown');
    const dispatched = steps.slice(0, shutdownAt).filter((step) => step.op === 'dispatch').length;
    const marked = steps.slice(0, shutdownAt).filter((step) => step.op === 'mark').length;
    return (
      shutdownAt >= 0 && dispatched > marked && steps.slice(shutdownAt).some((s) => s.op === 'mark')
    );
  },
];
const MAX_SEED = 5000;
for (const strategy of ['queue', 'drop', 'burst'] as const) {
  let seed = 1;
  // drop never holds more than one slot per tenant past its prelude, and the dispatcher waits for
  // each prelude: neither limit is reachable, so its first two scenarios are any two seeds.
  const wantedOf =
    strategy === 'drop' ? [() => true, () => true, ...WANTED_ADMISSION.slice(2)] : WANTED_ADMISSION;
  for (const [index, wanted] of wantedOf.entries()) {
    for (; ; seed++) {
      if (seed > MAX_SEED)
        throw new Error(`no ${strategy} scenario ${index + 1} below seed ${MAX_SEED}`);
      const steps = generateAdmissionScenario(strategy, seed);
      if (!wanted(steps)) continue;
      writeFileSync(
        join(MODELS_DIR, 'traces', `admission-${strategy}-${index + 1}.jsonl`),
        formatJsonLines(steps),
      );
      console.log(`admission-${strategy}-${index + 1}.jsonl: seed ${seed}`);
      seed++;
      break;
    }
  }
}
