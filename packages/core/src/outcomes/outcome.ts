import type { EventRef } from '../event/event.js';

/** The outcomes of accepted deliveries, listed once for `OUTCOMES` and `ACCEPTED_OUTCOMES`. */
const ACCEPTED = [
  'completed',
  'failed',
  'dropped',
  'superseded',
  'timed-out',
  'preempted',
  'shutdown',
] as const;

/** Every terminal outcome a delivery can reach. Each delivery reaches exactly one. */
export const OUTCOMES = [
  ...ACCEPTED,
  'admission-rejected',
  'prelude-error',
  'duplicate',
  'unrouted',
] as const;

/**
 * A terminal outcome. `prelude-error` is rt's name for a delivery whose prelude failed before it
 * was accepted, so nothing was marked: its dedupe mark failed (the platform is told to retry) or
 * its lock scope function threw (both a `PreludeError`). The rest are docs/contract.md §6.
 */
export type Outcome = (typeof OUTCOMES)[number];

/** Outcomes only an accepted (admitted, marked, acknowledged) delivery can reach. */
export const ACCEPTED_OUTCOMES: readonly Outcome[] = ACCEPTED;

/** The result of running an accepted delivery through its strategy and handlers. */
export interface HandledResult {
  readonly outcome: Outcome;
  /** The first value a handler returned that was not `undefined` (the sync response). */
  readonly response?: unknown;
  /** The first error a handler threw, or the abort reason for aborted outcomes. */
  readonly error?: unknown;
}

/** A finished delivery, as reported by `dispatch_finished` and by `accepted.settled`. */
export interface FinishedDelivery extends HandledResult {
  readonly event: EventRef;
  readonly durationMs: number;
}
