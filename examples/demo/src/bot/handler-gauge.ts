/**
 * Counts handler bodies as they run, independently of the runtime: `run` increments on entry and
 * decrements when the body settles (resolved or thrown). Under deferred dispatch every handler
 * runs inside a detached tail that holds an admission slot, so the peak of all bodies of one
 * runtime must never exceed `maxDetached`; this is the bound check that does not read
 * `runtime.stats()`. A gauge made with a `parent` counts its bodies there too, so a per-platform
 * gauge adds up on its own while the parent sees every body of the runtime at once.
 */
export class HandlerGauge {
  /** Handler bodies running now. */
  running = 0;
  /** The most that ever ran at once. */
  peak = 0;
  entered = 0;
  exited = 0;
  /** Bodies that ended by throwing (aborted, or their answer failed to reach the platform). */
  threw = 0;
  readonly #parent: HandlerGauge | undefined;

  constructor(parent?: HandlerGauge) {
    this.#parent = parent;
  }

  async run<T>(body: () => Promise<T>): Promise<T> {
    if (this.#parent !== undefined) return this.#parent.run(() => this.#count(body));
    return this.#count(body);
  }

  async #count<T>(body: () => Promise<T>): Promise<T> {
    this.entered += 1;
    this.running += 1;
    if (this.running > this.peak) this.peak = this.running;
    try {
      return await body();
    } catch (error) {
      this.threw += 1;
      throw error;
    } finally {
      this.running -= 1;
      this.exited += 1;
    }
  }
}
