import { OUTCOMES, type Outcome } from '../outcomes/outcome.js';

/**
 * Counts terminal outcomes and tracks deliveries that still owe one, so shutdown can wait for
 * the last of them.
 */
export class OutcomeLedger {
  readonly #counts: Record<Outcome, number> = Object.fromEntries(
    OUTCOMES.map((outcome) => [outcome, 0]),
  ) as Record<Outcome, number>;
  #owed = 0;
  #drainWaiters: (() => void)[] = [];

  /** Deliveries admitted (past routing and admission) that have no terminal outcome yet. */
  get owed(): number {
    return this.#owed;
  }

  /** A copy of the counts so far. */
  counts(): Record<Outcome, number> {
    return { ...this.#counts };
  }

  /** Records a delivery that now owes an outcome. */
  open(): void {
    this.#owed += 1;
  }

  /** Records a terminal outcome; `wasOpen` when the delivery had been `open`ed. */
  record(outcome: Outcome, wasOpen: boolean): void {
    this.#counts[outcome] += 1;
    if (!wasOpen) return;
    this.#owed -= 1;
    if (this.#owed === 0) {
      const waiters = this.#drainWaiters;
      this.#drainWaiters = [];
      for (const wake of waiters) wake();
    }
  }

  /** Resolves when no delivery owes an outcome. */
  drained(): Promise<void> {
    if (this.#owed === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }
}
