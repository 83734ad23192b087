/**
 * Slack's Events API retry schedule: after a failed delivery (non-2xx, no answer within 3 s,
 * connection failure) it retries at once, then one minute later, then five minutes later, and
 * then gives up. Attempt numbers: 0 is the first delivery, 1..3 the retries
 * (`x-slack-retry-num`).
 */
export const SLACK_RETRY_DELAYS_MS: readonly number[] = Object.freeze([0, 60_000, 300_000]);

/** Slack's `x-slack-retry-reason` values the simulator uses. */
export type RetryReason = 'http_error' | 'http_timeout' | 'connection_failed';

/** What `schedule` did: armed the retry, found Slack out of retries, or found the run stopped. */
export type ScheduleResult = 'scheduled' | 'exhausted' | 'cancelled';

/**
 * Schedules redeliveries on Slack's schedule divided by `timeScale`. Every timer is tracked, so
 * `idle()` resolves once nothing is scheduled or running, and `cancel()` stops what is left (and
 * everything scheduled after it).
 */
export class RedeliveryScheduler {
  readonly #timeScale: number;
  /** Armed timers and what to call if the stop drops them. */
  readonly #timers = new Map<ReturnType<typeof setTimeout>, () => void>();
  #cancelled = false;
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

  /** True once `cancel()` ran: nothing is scheduled any more. */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  /**
   * Runs `send` for retry `attempt` after its delay and returns `'scheduled'`. Schedules nothing
   * and returns `'exhausted'` when Slack would not retry any more, or `'cancelled'` after
   * `cancel()`. `onCancel` runs if `cancel()` drops this retry before it was sent.
   */
  schedule(attempt: number, send: () => Promise<void>, onCancel?: () => void): ScheduleResult {
    const delay = this.delayBefore(attempt);
    if (delay === undefined) return 'exhausted';
    if (this.#cancelled) return 'cancelled';
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.track(send());
    }, delay);
    this.#timers.set(timer, onCancel ?? (() => undefined));
    return 'scheduled';
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

  /**
   * Drops every scheduled redelivery, calling each one's `onCancel`, and refuses later ones.
   * Running deliveries finish on their own. Idempotent.
   */
  cancel(): void {
    this.#cancelled = true;
    const dropped = [...this.#timers];
    this.#timers.clear();
    for (const [timer, onCancel] of dropped) {
      clearTimeout(timer);
      onCancel();
    }
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
