/**
 * Regenerates the committed traces in `models/traces/` from fixed seeds:
 * `pnpm --filter @rt/models traces`. The lease seeds are chosen (the first seeds from 1 up) so
 * that the committed traces cover a stale release against a live successor, a key loss with a
 * refused renewal, a lost wake-up, and renewals. The tests replay these and fresh ones of their own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateAdmissionScenario } from './admission-scenario.js';
import { coverageOf, formatJsonLines, generateLeaseTrace, type LeaseCoverage } from './lease-trace.js';
import { MODELS_DIR } from './spin.js';

/** Seeds of the committed admission scenarios. */
export const COMMITTED_SEEDS = Object.freeze([1, 2, 3, 4]);

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
    const steps = generateLeaseTrace(seed);
    if (!wanted(coverageOf(steps))) continue;
    writeFileSync(join(MODELS_DIR, 'traces', `lease-${index + 1}.jsonl`), formatJsonLines(steps));
    console.log(`lease-${index + 1}.jsonl: seed ${seed}`, coverageOf(steps));
    seed++;
    break;
  }
}
for (const seed of COMMITTED_SEEDS) {
  for (const strategy of ['queue', 'drop', 'burst'] as const) {
    writeFileSync(
      join(MODELS_DIR, 'traces', `admission-${strategy}-${seed}.jsonl`),
      formatJsonLines(generateAdmissionScenario(strategy, seed)),
    );
  }
}
