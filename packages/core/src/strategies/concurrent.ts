import type { Delivery } from '../dispatch/delivery.js';
import { outcomeForAbort } from '../dispatch/invoke-handlers.js';
import type { HandledResult } from '../outcomes/outcome.js';
import { Cancellation } from '../util/cancellation.js';
import type { ConcurrencyStrategy, StrategyHost } from './strategy.js';

interface Scope {
  running: number;
  /**
   * FIFO waiting line; Map keeps insertion order and deletes in O(1). Created when the first
   * delivery has to wait: a scope nobody waits in costs no Map.
   */
  line: Map<Delivery, () => void> | undefined;
}

/**
 * `concurrent`: no lock. At most `maxConcurrent` handlers run per scope; later deliveries wait in
 * FIFO order and count against the bound while they wait. Unset `maxConcurrent` means unlimited.
 * A waiter leaves the line with `shutdown` when shutdown starts and `timed-out` at its detach
 * timeout. Scope records are deleted when idle.
 */
export class ConcurrentStrategy implements ConcurrencyStrategy {
  readonly name = 'concurrent' as const;
  readonly #host: StrategyHost;
  readonly #scopes = new Map<string, Scope>();
  #parked = 0;

  constructor(host: StrategyHost) {
    this.#host = host;
  }

  get parked(): number {
    return this.#parked;
  }

  async run(delivery: Delivery): Promise<HandledResult> {
    const max = this.#host.config.maxConcurrent;
    if (max === undefined) return this.#host.invoke(delivery);
    const key = delivery.scopeKey;
    let scope = this.#scopes.get(key);
    if (!scope) {
      scope = { running: 0, line: undefined };
      this.#scopes.set(key, scope);
    }
    if (scope.running >= max || (scope.line !== undefined && scope.line.size > 0)) {
      const left = await this.#wait(scope, delivery);
      if (left) {
        this.#collect(key, scope);
        return left;
      }
    } else {
      scope.running += 1;
    }
    try {
      return await this.#host.invoke(delivery);
    } finally {
      scope.running -= 1;
      this.#handOver(scope);
      this.#collect(key, scope);
    }
  }

  /** Waits for a running spot (resolves `undefined`) or leaves on abort (resolves the outcome). */
  #wait(scope: Scope, delivery: Delivery): Promise<HandledResult | undefined> {
    this.#parked += 1;
    const life = new Cancellation();
    const detach = life.follow([delivery.controller, this.#host.shutdownSignal]);
    return new Promise<HandledResult | undefined>((resolve) => {
      let stopListening: (() => void) | undefined;
      const finish = (result: HandledResult | undefined) => {
        stopListening?.();
        detach();
        scope.line?.delete(delivery);
        this.#parked -= 1;
        resolve(result);
      };
      const onAbort = (reason: unknown) => {
        finish({ outcome: outcomeForAbort(reason), error: reason });
      };
      if (life.aborted) {
        onAbort(life.reason);
        return;
      }
      stopListening = life.onAbort(onAbort);
      scope.line ??= new Map();
      scope.line.set(delivery, () => finish(undefined));
    });
  }

  #handOver(scope: Scope): void {
    const max = this.#host.config.maxConcurrent ?? Number.POSITIVE_INFINITY;
    while (scope.running < max) {
      if (scope.line === undefined) return;
      const next = scope.line.entries().next();
      if (next.done) return;
      const [, admit] = next.value;
      scope.running += 1;
      admit();
    }
  }

  #collect(key: string, scope: Scope): void {
    const idle = scope.line === undefined || scope.line.size === 0;
    if (scope.running === 0 && idle && this.#scopes.get(key) === scope) {
      this.#scopes.delete(key);
    }
  }

  /** Scope records alive now (for tests proving idle scopes are collected). */
  get scopeCount(): number {
    return this.#scopes.size;
  }
}
