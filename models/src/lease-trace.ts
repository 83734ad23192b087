/**
 * The lease trace format: one JSON object per line, each a step model 1 (`lease/lease.pml`) took:
 * a request leaving a lane, the State applying it (with the model State's result), its answer
 * arriving, a timer firing (abort, renewal, poll), a wake-up, a key loss, or a clock tick. Times
 * and TTLs are in model units; tokens and fences are the model's (1, 2, ...).
 */
import { parseTagged, simulate } from './spin.js';

/** The operations of a lease trace. */
export const LEASE_OPS = Object.freeze([
  'tick',
  'start',
  'acqreq',
  'acquire',
  'acqans',
  'abort',
  'renewreq',
  'renew',
  'renewans',
  'ret',
  'relreq',
  'release',
  'relans',
  'wake',
  'lose',
  'shutdown',
  'resolved',
] as const);

/** One operation name. */
export type LeaseOp = (typeof LEASE_OPS)[number];

/**
 * One step. `inst` is the lane (instance); `tok`, `ttl`, `ok`, `fence` are present on State
 * operations (`acquire`, `renew`, `release`) and answers (`ok`); `why` on `abort` (1 local
 * expiry, 2 refused renewal) and `acqreq` (1 delivery start, 2 poll timer, 3 wake-up).
 */
export interface LeaseStep {
  readonly op: LeaseOp;
  readonly now: number;
  readonly inst?: number;
  readonly tok?: number;
  readonly ttl?: number;
  readonly ok?: number;
  readonly fence?: number;
  readonly why?: number;
}

const OPS: ReadonlySet<string> = new Set(LEASE_OPS);

/** Turns the model's `TRACE ...` lines into steps; throws on an unknown operation. */
export function leaseStepsOf(lines: readonly string[]): LeaseStep[] {
  return parseTagged(lines, 'TRACE').map((record) => {
    const op = String(record.op);
    if (!OPS.has(op)) throw new Error(`unknown trace operation "${op}"`);
    if (typeof record.now !== 'number') throw new Error(`trace step ${op} lacks now`);
    return record as unknown as LeaseStep;
  });
}

/** A field a step must carry; throws naming the step when it does not. */
export function field(step: LeaseStep, name: 'inst' | 'tok' | 'ttl' | 'ok' | 'fence'): number {
  const value = step[name];
  if (value === undefined) throw new Error(`trace step ${JSON.stringify(step)} lacks ${name}`);
  return value;
}

/**
 * The model configuration traces are drawn from: three lanes of three deliveries, a clock of 12
 * units, one key loss, no shutdown (the lock manager has none).
 */
export const LEASE_TRACE_DEFINES = Object.freeze({
  N: 3,
  JOBS: 3,
  MAXT: 12,
  LOSS: 1,
  NO_SHUTDOWN: 1,
});

/** Simulates model 1 with `seed` and returns its trace. */
export function generateLeaseTrace(seed: number): LeaseStep[] {
  return leaseStepsOf(
    simulate({ model: 'lease/lease.pml', seed, defines: LEASE_TRACE_DEFINES, maxSteps: 6000 }),
  );
}

/** What a trace covers (the committed traces are chosen to cover each). */
export interface LeaseCoverage {
  /** A release refused while another token holds a live lease. */
  readonly staleReleaseAgainstSuccessor: number;
  readonly renewals: number;
  readonly refusedRenewals: number;
  readonly keyLosses: number;
  /** A release with a parked lane that got no wake-up (it must poll). */
  readonly lostWakeups: number;
  readonly takeovers: number;
}

/** Counts what `steps` covers, replaying the model's State in a few lines. */
export function coverageOf(steps: readonly LeaseStep[]): LeaseCoverage {
  let holder = 0;
  let expiresAt = 0;
  let now = 0;
  const parked = new Set<number>();
  let stale = 0;
  let renewals = 0;
  let refused = 0;
  let losses = 0;
  let lost = 0;
  let takeovers = 0;
  for (const [index, step] of steps.entries()) {
    now = step.now;
    const live = holder !== 0 && now < expiresAt;
    switch (step.op) {
      case 'acquire':
        if (step.ok === 1) {
          if (holder !== 0) takeovers += 1;
          holder = field(step, 'tok');
          expiresAt = now + field(step, 'ttl');
        }
        break;
      case 'renew':
        if (step.ok === 1) {
          renewals += 1;
          expiresAt = now + field(step, 'ttl');
        } else refused += 1;
        break;
      case 'release':
        if (step.ok === 1) {
          holder = 0;
          const woken = new Set<number>();
          for (const next of steps.slice(index + 1)) {
            if (next.op !== 'wake' && next.op !== 'acqreq') break;
            if (next.op === 'wake') woken.add(field(next, 'inst'));
          }
          for (const lane of parked) if (!woken.has(lane)) lost += 1;
        } else if (live && holder !== field(step, 'tok')) stale += 1;
        break;
      case 'lose':
        holder = 0;
        losses += 1;
        break;
      case 'acqans':
        if (step.ok === 0) parked.add(field(step, 'inst'));
        break;
      case 'acqreq':
        parked.delete(field(step, 'inst'));
        break;
      default:
        break;
    }
  }
  return {
    staleReleaseAgainstSuccessor: stale,
    renewals,
    refusedRenewals: refused,
    keyLosses: losses,
    lostWakeups: lost,
    takeovers,
  };
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
