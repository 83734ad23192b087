import type { RtEvent } from '@rt/core';
import { installationOf } from '../normalize/installation.js';
import type { ResolvedSlackOptions } from '../options.js';
import { postJson } from '../outbound/direct-call.js';
import { resolveToken } from '../outbound/token.js';
import type { FollowUp } from './answer.js';

/** Reports a failed follow-up (the HTTP handler turns it into an `adapter_notice`). */
export type FollowUpFailure = (event: RtEvent, followUp: FollowUp, error: unknown) => void;

/**
 * Sends busy-signal follow-ups after the acknowledgement. Each one is best effort and bounded by
 * `busySignalTimeoutMs`, covering token resolution and the HTTP call; the request is aborted when
 * the budget runs out. Failures are reported through `onFailure`, never thrown.
 */
export class FollowUpRunner {
  readonly #options: ResolvedSlackOptions;
  readonly #onFailure: FollowUpFailure;
  readonly #pending = new Set<Promise<void>>();

  constructor(options: ResolvedSlackOptions, onFailure: FollowUpFailure) {
    this.#options = options;
    this.#onFailure = onFailure;
  }

  /** Follow-ups started and not yet settled. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Starts `followUp` for `event` without waiting for it. */
  start(event: RtEvent, followUp: FollowUp): void {
    const task = this.#send(event, followUp).then(undefined, (error: unknown) => {
      try {
        this.#onFailure(event, followUp, error);
      } catch {
        // A failing reporter must not turn into an unhandled rejection.
      }
    });
    this.#pending.add(task);
    void task.finally(() => this.#pending.delete(task));
  }

  /** Resolves once every follow-up started so far has settled (each is time-bounded). */
  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  async #send(event: RtEvent, followUp: FollowUp): Promise<void> {
    const signal = AbortSignal.timeout(this.#options.busySignalTimeoutMs);
    const fetchImpl = this.#options.fetch;
    if (followUp.kind === 'response_url') {
      await postJson(fetchImpl, {
        url: followUp.url,
        body: followUp.body,
        signal,
        expectOk: false,
      });
      return;
    }
    const token = await resolveToken(this.#options.tokenResolver, installationOf(event));
    signal.throwIfAborted();
    await postJson(fetchImpl, {
      url: `${this.#options.apiUrl}${followUp.kind}`,
      body: { trigger_id: followUp.triggerId, view: followUp.view },
      token,
      signal,
      expectOk: true,
    });
  }
}
