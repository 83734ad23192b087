/**
 * Slack's Events API retry schedule: after a failed delivery (non-2xx, no answer within 3 s,
 * connection failure) it retries at once, then one minute later, then five minutes later, and
 * then gives up. Attempt numbers: 0 is the first delivery, 1..3 the retries
 * (`x-slack-retry-num`).
 */
export const SLACK_RETRY_DELAYS_MS: readonly number[] = Object.freeze([0, 60_000, 300_000]);

/** Slack's `x-slack-retry-reason` values the simulator uses. */
export type RetryReason = 'http_error' | 'http_timeout' | 'connection_failed';

/**
 * Schedules redeliveries on Slack's schedule divided by `timeScale`. Every timer is tracked, so
 * `idle()` resolves once nothing is scheduled or running, and `cancel()` stops what is left.
 */
export class RedeliveryScheduler {
  readonly #timeScale: number;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #running = new Set<Promise<void>>();
  #idleWaiters: (() => void)[] = [];

  constructor(timeScale: number) {
    this.#timeScale = timeScale;
  }

  /** Redeliveries scheduled and not yet started. */
  get scheduled(): number {
    return this.#timers.size;
  }

  /** Real delay before retry `attempt` (1..3), or `undefined` when Slack would stop. */
  delayBefore(attempt: number): number | undefined {
    const delay = SLACK_RETRY_DELAYS_MS[attempt - 1];
    return delay === undefined ? undefined : delay / this.#timeScale;
  }

  /**
   * Runs `send` for retry `attempt` after its delay. Returns false (and schedules nothing) when
   * Slack would not retry any more.
   */
  schedule(attempt: number, send: () => Promise<void>): boolean {
    const delay = this.delayBefore(attempt);
    if (delay === undefined) return false;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.track(send());
    }, delay);
    this.#timers.add(timer);
    return true;
  }

  /** Tracks a running delivery so `idle()` waits for it. */
  track(task: Promise<void>): void {
    const settled = task.then(
      () => undefined,
      () => undefined,
    );
    this.#running.add(settled);
    void settled.then(() => {
      this.#running.delete(settled);
      this.#wakeIfIdle();
    });
  }

  /** Resolves when nothing is scheduled or running. */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Drops every scheduled redelivery (running ones finish on their own). */
  cancel(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#wakeIfIdle();
  }

  #isIdle(): boolean {
    return this.#timers.size === 0 && this.#running.size === 0;
  }

  #wakeIfIdle(): void {
    if (!this.#isIdle()) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
