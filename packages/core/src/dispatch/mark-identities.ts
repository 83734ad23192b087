import { type EventRef, eventRef, type RtEvent } from '../event/event.js';
import { dedupeKeyOf } from '../event/validate-event.js';
import type { Observation } from '../observe/observation.js';
import { hasMultiKeyMark, type State } from '../state/state.js';

/** What marking an event's identities needs from the runtime. */
export interface MarkHost {
  readonly state: State;
  emit(observation: Observation): void;
}

/** Runtimes (by their host) that already reported the missing `MultiKeyMark` capability. */
const reported = new WeakSet<MarkHost>();

/**
 * The prelude's dedupe mark (docs/contract.md §3 step 4) for every identity of `event`, for `ttlMs`. Without
 * `aliases`: `markEvent(primary)`. With aliases and a State offering `MultiKeyMark`: one atomic
 * `markEvents([primary, ...aliases])`, so the delivery is a duplicate when any identity was seen
 * and a failure marks none of them. With aliases and no capability: `markEvent(primary)` alone,
 * after a `state_capability_missing` observation, emitted once per `host` (runtime). Resolves
 * `true` for a first mark; rejects with the State's error (nothing marked), which the prelude
 * turns into a prelude error. Called only after admission.
 */
export function markIdentities(host: MarkHost, event: RtEvent, ttlMs: number): Promise<boolean> {
  const primary = dedupeKeyOf(event);
  const aliases = event.aliases;
  if (aliases === undefined || aliases.length === 0) return host.state.markEvent(primary, ttlMs);
  if (hasMultiKeyMark(host.state)) return host.state.markEvents([primary, ...aliases], ttlMs);
  if (!reported.has(host)) {
    reported.add(host);
    reportMissing(host, eventRef(event));
  }
  return host.state.markEvent(primary, ttlMs);
}

function reportMissing(host: MarkHost, event: EventRef): void {
  host.emit({
    type: 'state_capability_missing',
    at: Date.now(),
    capability: 'MultiKeyMark',
    event,
  });
}
