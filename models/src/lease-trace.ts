/**
 * The lease trace format: one JSON object per line, each a State operation model 1
 * (`lease/lease.pml`) performed, with the result the model's State gave, or a clock tick.
 * Times and TTLs are in model units; tokens are the model's (1, 2, ...), fences the model's.
 */
import { parseTagged, simulate } from './spin.js';

/** One step of a lease trace. */
export type LeaseStep =
  | { readonly op: 'tick'; readonly now: number }
  | {
      readonly op: 'acquire';
      readonly inst: number;
      readonly now: number;
      readonly ttl: number;
      /** The model's token for the new lease; 0 when the acquire found the key held. */
      readonly tok: number;
      readonly ok: boolean;
      readonly fence: number;
    }
  | {
      readonly op: 'renew';
      readonly inst: number;
      readonly tok: number;
      readonly now: number;
      readonly ttl: number;
      readonly ok: boolean;
    }
  | {
      readonly op: 'release';
      readonly inst: number;
      readonly tok: number;
      readonly now: number;
      readonly ok: boolean;
    };

/** Turns the model's `TRACE ...` lines into steps; throws on an unknown operation. */
export function leaseStepsOf(lines: readonly string[]): LeaseStep[] {
  return parseTagged(lines, 'TRACE').map((record): LeaseStep => {
    const num = (name: string): number => {
      const value = record[name];
      if (typeof value !== 'number') throw new Error(`trace step ${record.op} lacks ${name}`);
      return value;
    };
    switch (record.op) {
      case 'tick':
        return { op: 'tick', now: num('now') };
      case 'acquire':
        return {
          op: 'acquire',
          inst: num('inst'),
          now: num('now'),
          ttl: num('ttl'),
          tok: num('tok'),
          ok: num('ok') === 1,
          fence: num('fence'),
        };
      case 'renew':
        return {
          op: 'renew',
          inst: num('inst'),
          tok: num('tok'),
          now: num('now'),
          ttl: num('ttl'),
          ok: num('ok') === 1,
        };
      case 'release':
        return {
          op: 'release',
          inst: num('inst'),
          tok: num('tok'),
          now: num('now'),
          ok: num('ok') === 1,
        };
      default:
        throw new Error(`unknown trace operation "${String(record.op)}"`);
    }
  });
}

/** The model configuration traces are drawn from: three lanes, longer runs than the check. */
export const LEASE_TRACE_DEFINES = Object.freeze({ N: 3, JOBS: 3, MAXT: 12 });

/** Simulates model 1 with `seed` and returns its trace. */
export function generateLeaseTrace(seed: number): LeaseStep[] {
  return leaseStepsOf(
    simulate({ model: 'lease/lease.pml', seed, defines: LEASE_TRACE_DEFINES, maxSteps: 4000 }),
  );
}

/** JSON lines of a trace (the committed file format). */
export function formatJsonLines(steps: readonly object[]): string {
  return `${steps.map((step) => JSON.stringify(step)).join('\n')}\n`;
}

/** Parses JSON lines back into steps. */
export function parseJsonLines<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
