/**
 * Regenerates the committed traces in `models/traces/` from fixed seeds:
 * `pnpm --filter @rt/models traces`. The tests replay these and fresh ones of their own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateAdmissionScenario } from './admission-scenario.js';
import { formatJsonLines, generateLeaseTrace } from './lease-trace.js';
import { MODELS_DIR } from './spin.js';

/** Seeds of the committed traces. */
export const COMMITTED_SEEDS = Object.freeze([1, 2, 3, 4]);

for (const seed of COMMITTED_SEEDS) {
  writeFileSync(
    join(MODELS_DIR, 'traces', `lease-${seed}.jsonl`),
    formatJsonLines(generateLeaseTrace(seed)),
  );
  for (const strategy of ['queue', 'drop', 'burst'] as const) {
    writeFileSync(
      join(MODELS_DIR, 'traces', `admission-${strategy}-${seed}.jsonl`),
      formatJsonLines(generateAdmissionScenario(strategy, seed)),
    );
  }
}
