import type { PendingSet } from './pending-set.js';

/** One long-lived transport of an adapter (Socket Mode, a gateway), as its lifecycle drives it. */
export interface LifecycleTransport {
  /** Opens the transport; resolves once it can receive. Rejects with `signal.reason` on abort. */
  start?(signal: AbortSignal): Promise<void>;
  /**
   * Admission has closed: sends what the transport owes for deliveries read so far, and may keep
   * receiving (to refuse visibly). Idempotent. Rejects with `signal.reason` on abort.
   */
  stop?(signal: AbortSignal): Promise<void>;
  /** Closes the transport for good (no reconnect). Idempotent. Rejects with `signal.reason`. */
  close?(signal: AbortSignal): Promise<void>;
}

/** What an `AdapterLifecycle` sequences. */
export interface AdapterLifecycleOptions {
  /** Answers being built from a dispatch (each bounded by the ack deadline). */
  readonly answering: PendingSet;
  /** Busy-signal follow-ups (a `FollowUpRunner`: each bounded by its budget). */
  readonly followUps: { drain(signal?: AbortSignal): Promise<void> };
  /** The adapter's long-lived transports, in order; `undefined` entries are not configured. */
  readonly transports: readonly (LifecycleTransport | undefined)[];
}

/** A signal that never aborts, for steps called without one. */
const NEVER = new AbortController().signal;

/** The tick on which the outcomes recorded last start their follow-ups. */
function nextTick(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * The `start` / `stop` / `drain` of an adapter, written once: the order in which its transports,
 * its answers in flight and its follow-ups are waited for. Every step converges under continuous
 * traffic (what arrives while it waits is not waited for) and rejects with `signal.reason` when
 * `signal` (the runtime's step deadline) aborts first; the work it waited for goes on.
 */
export class AdapterLifecycle {
  readonly #options: AdapterLifecycleOptions;

  constructor(options: AdapterLifecycleOptions) {
    this.#options = options;
  }

  /** `runtime.start()`: starts each transport in order. Without transports, resolves at once. */
  async start(signal: AbortSignal = NEVER): Promise<void> {
    for (const transport of this.#options.transports) await transport?.start?.(signal);
  }

  /**
   * `runtime.shutdown()` once admission has closed: each transport's `stop`, then `settle`.
   */
  async stop(signal?: AbortSignal): Promise<void> {
    for (const transport of this.#options.transports) await transport?.stop?.(signal ?? NEVER);
    await this.settle(signal);
  }

  /**
   * `runtime.shutdown()` once every admitted delivery has its outcome: waits one tick (the late
   * busy signals those outcomes start begin on their own tick), closes each transport for good,
   * then `settle`.
   */
  async drain(signal?: AbortSignal): Promise<void> {
    await nextTick();
    for (const transport of this.#options.transports) await transport?.close?.(signal ?? NEVER);
    await this.settle(signal);
  }

  /**
   * Resolves once the answers being built at the call are out, and then every follow-up started by
   * that moment (theirs included) has settled. Later work is not waited for.
   */
  async settle(signal?: AbortSignal): Promise<void> {
    await this.#options.answering.settledNow(signal);
    await this.#options.followUps.drain(signal);
  }
}
