import type { AdmissionRejectionReason } from '../errors.js';
import { installationPart } from '../util/key-part.js';

/**
 * One admission slot. `release()` is idempotent: the first call returns the slot, later calls do
 * nothing, so every exit path may call it safely.
 */
export interface AdmissionSlot {
  release(): void;
  readonly released: boolean;
}

/**
 * The per-instance Admission Bound (docs/contract.md §4): at most `maxDetached` slots in total and, when
 * `maxDetachedPerTenant > 0`, at most that many per `(adapter, tenant)`. Per-tenant counters are
 * deleted when they reach zero, so memory does not grow with the number of tenants.
 */
export class AdmissionController {
  readonly #max: number;
  readonly #maxPerTenant: number;
  readonly #perTenant = new Map<string, number>();
  #inFlight = 0;
  #highWater = 0;

  constructor(maxDetached: number, maxDetachedPerTenant: number) {
    this.#max = maxDetached;
    this.#maxPerTenant = maxDetachedPerTenant;
  }

  /** Slots held now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** The most slots ever held at once since creation (for sizing `maxDetached`). */
  get highWater(): number {
    return this.#highWater;
  }

  /**
   * Slots held per `adapter:tenant` (each part URI-encoded, so no two pairs share a key); tenants
   * at zero are absent.
   */
  perTenant(): Record<string, number> {
    return Object.fromEntries(this.#perTenant);
  }

  /** Number of tenants with a live counter (for tests proving counters are collected). */
  get tenantCount(): number {
    return this.#perTenant.size;
  }

  /** Reserves a slot, or returns the reason it cannot. Never waits. */
  tryAcquire(adapter: string, tenant: string): AdmissionSlot | AdmissionRejectionReason {
    if (this.#inFlight >= this.#max) return 'capacity';
    const key = installationPart(adapter, tenant);
    const held = this.#perTenant.get(key) ?? 0;
    if (this.#maxPerTenant > 0 && held >= this.#maxPerTenant) return 'tenant-capacity';
    this.#inFlight += 1;
    if (this.#inFlight > this.#highWater) this.#highWater = this.#inFlight;
    this.#perTenant.set(key, held + 1);
    return new Slot(this, key);
  }

  /** Gives back one slot of `key` (called once per slot, by `Slot.release`). */
  returnSlot(key: string): void {
    this.#inFlight -= 1;
    const left = (this.#perTenant.get(key) ?? 1) - 1;
    if (left <= 0) this.#perTenant.delete(key);
    else this.#perTenant.set(key, left);
  }
}

/** One reserved slot: its controller and tenant key, no closure. */
class Slot implements AdmissionSlot {
  readonly #controller: AdmissionController;
  readonly #key: string;
  #released = false;

  constructor(controller: AdmissionController, key: string) {
    this.#controller = controller;
    this.#key = key;
  }

  get released(): boolean {
    return this.#released;
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#controller.returnSlot(this.#key);
  }
}
