/**
 * Counts handler bodies as they run, independently of the runtime: `run` increments on entry and
 * decrements when the body settles (resolved or thrown). Under deferred dispatch every handler
 * runs inside a detached tail that holds an admission slot, so `peak` must never exceed
 * `maxDetached`; this is the bound check that does not read `runtime.stats()`.
 */
export class HandlerGauge {
  /** Handler bodies running now. */
  running = 0;
  /** The most that ever ran at once. */
  peak = 0;
  entered = 0;
  exited = 0;
  /** Bodies that ended by throwing (aborted, or their answer failed to reach Slack). */
  threw = 0;

  async run<T>(body: () => Promise<T>): Promise<T> {
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
