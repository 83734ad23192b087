import type { Observation, Observer, Runtime } from '@rt/core';

/**
 * Samples `runtime.stats()` on every observation (every admission, rejection and outcome is one):
 * the peak of `detachedInFlight`, the peak per installation, and, when a hot installation is
 * named, how many other installations' deliveries were admitted while the hot one sat at its
 * ceiling (the ceiling held it without starving the rest).
 */
export class InFlightSampler {
  peakInFlight = 0;
  readonly peakPerTenant = new Map<string, number>();
  samples = 0;
  /** Admissions of other installations while `hot` held exactly `ceiling` slots. */
  othersAdmittedWhileHotAtCeiling = 0;
  #runtime: Runtime | undefined;

  constructor(private readonly hot?: { readonly key: string; readonly ceiling: number }) {}

  /** Binds the runtime to sample (the observer exists before the runtime does). */
  bind(runtime: Runtime): void {
    this.#runtime = runtime;
  }

  readonly observer: Observer = (observation: Observation) => {
    const runtime = this.#runtime;
    if (runtime === undefined) return;
    const stats = runtime.stats();
    this.samples += 1;
    this.peakInFlight = Math.max(this.peakInFlight, stats.detachedInFlight);
    for (const [key, count] of Object.entries(stats.perTenantInFlight)) {
      this.peakPerTenant.set(key, Math.max(this.peakPerTenant.get(key) ?? 0, count));
    }
    if (
      this.hot !== undefined &&
      observation.type === 'dispatch_admitted' &&
      `${observation.event.adapter}:${observation.event.tenant}` !== this.hot.key &&
      stats.perTenantInFlight[this.hot.key] === this.hot.ceiling
    ) {
      this.othersAdmittedWhileHotAtCeiling += 1;
    }
  };
}
