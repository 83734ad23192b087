import type { Span } from '@opentelemetry/api';
import type { DispatchMode, EventRef } from '@rt/core';

/**
 * What the observer keeps about one accepted delivery between `dispatch_admitted` and its
 * `dispatch_finished`. Only exists while a provider is set; removed at the terminal outcome, so
 * the map holds at most the deliveries in flight.
 */
export interface DeliveryRecord {
  readonly event: EventRef;
  readonly mode: DispatchMode;
  /** `dispatch_admitted.at`: epoch ms just after the dedupe mark. */
  readonly admittedAt: number;
  /** The delivery span, started lazily (by `traced` at handler start, else at the outcome). */
  span: Span | undefined;
  /** True once a `traced` handler measured this delivery's handler duration. */
  measured: boolean;
  /** `lock_conflict` observations seen for this delivery. */
  lockConflicts: number;
  /** The id of the delivery that superseded this one, from the `superseded` observation. */
  supersededBy: string | undefined;
}

/** The key of a delivery's record: its Event Identity. */
export function recordKey(adapter: string, tenant: string, id: string): string {
  return `${adapter}\u0000${tenant}\u0000${id}`;
}
