import type { RuntimeHandle } from '../adapter/adapter.js';

/**
 * The one runtime an adapter serves: `attach` registers it, `current` reads it (`undefined`
 * before). Attaching the same runtime again is allowed (idempotent); another runtime throws
 * `TypeError` naming the adapter, since one adapter's notices, admission and shutdown belong to
 * one runtime.
 */
export class AttachGuard {
  readonly #label: string;
  #runtime: RuntimeHandle | undefined;

  /** `label` names the adapter in the error, e.g. `slack adapter "slack"`. */
  constructor(label: string) {
    this.#label = label;
  }

  /** The attached runtime, `undefined` before `attach`. */
  get current(): RuntimeHandle | undefined {
    return this.#runtime;
  }

  /** Registers `runtime`; throws `TypeError` when another runtime is already attached. */
  attach(runtime: RuntimeHandle): void {
    if (this.#runtime !== undefined && this.#runtime !== runtime) {
      throw new TypeError(`${this.#label} is already attached to a runtime`);
    }
    this.#runtime = runtime;
  }
}
