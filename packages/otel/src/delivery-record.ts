import type { Span } from '@opentelemetry/api';

/**
 * What the observer keeps about one accepted delivery between `dispatch_admitted` and its
 * `dispatch_finished`, only while a tracer provider is set: its open delivery span. Removed at
 * the terminal outcome, so the map holds at most the deliveries in flight.
 */
export interface DeliveryRecord {
  /** The `rt.delivery` span, started at admission from the event's receipt. */
  readonly span: Span;
  /** `lock_conflict` observations seen for this delivery. */
  lockConflicts: number;
}

/** The key of a delivery's record: its Event Identity. */
export function recordKey(adapter: string, tenant: string, id: string): string {
  return `${adapter}\u0000${tenant}\u0000${id}`;
}
