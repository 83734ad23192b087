import type { Adapter } from '../adapter/adapter.js';
import type { AdmissionSlot } from '../admission/admission-controller.js';
import type { RtEvent } from '../event/event.js';
import type { DispatchMode } from '../observe/observation.js';
import type { Handler } from '../routing/handler.js';

/**
 * One accepted delivery on its way through a strategy. `controller` is its life: it aborts on
 * the detach timeout (deferred), at shutdown's grace deadline, or with the adapter's own signal
 * (sync). Strategies that park it also watch the runtime's shutdown signal.
 */
export interface Delivery {
  readonly event: RtEvent;
  readonly handlers: readonly Handler[];
  readonly adapter: Adapter;
  readonly mode: DispatchMode;
  /** Lock or coalescing scope key (adapter- and tenant-namespaced). */
  readonly scopeKey: string;
  readonly controller: AbortController;
  /** Epoch ms when dispatch accepted it. */
  readonly acceptedAt: number;
  /** Deferred only: the admission slot, released by the runtime after the strategy resolves. */
  readonly slot: AdmissionSlot | undefined;
}
