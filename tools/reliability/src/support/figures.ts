import { appendFileSync } from 'node:fs';

/**
 * True under `pnpm --filter @rt/reliability long`: the floods run their long variant (more
 * deliveries, longer outages, more parser inputs). CI runs the short one.
 */
export const LONG = process.env.RT_RELIABILITY_LONG === '1';

/** `short` in CI, `long` under the long script. */
export function sized<T>(short: T, long: T): T {
  return LONG ? long : short;
}

/**
 * Records the figures of one check for docs/reliability.md: one JSON line appended to the file
 * named by `RT_RELIABILITY_FIGURES` (the long script sets it), and nowhere otherwise.
 */
export function recordFigures(check: string, figures: Readonly<Record<string, unknown>>): void {
  const file = process.env.RT_RELIABILITY_FIGURES;
  if (file === undefined || file === '') return;
  appendFileSync(file, `${JSON.stringify({ check, long: LONG, ...figures })}\n`);
}
