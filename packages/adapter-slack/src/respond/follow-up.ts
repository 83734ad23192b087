import type { RtEvent } from '@rt/core';
import { abortable, PendingSet, timeoutSignal } from '@rt/core/adapter';
import { SlackTokenError } from '../errors.js';
import { installationOf } from '../normalize/installation.js';
import type { ResolvedSlackOptions } from '../options.js';
import { postJson } from '../outbound/direct-call.js';
import { resolveToken } from '../outbound/token.js';
import type { FollowUp } from './answer.js';

/** Reports a failed follow-up (the HTTP handler turns it into an `adapter_notice`). */
export type FollowUpFailure = (event: RtEvent, followUp: FollowUp, error: unknown) => void;

/**
 * Sends busy-signal follow-ups after the acknowledgement. Each one is best effort and bounded by
 * `busySignalTimeoutMs`, counted from `start`, covering token resolution and the HTTP call: at the
 * budget the request is aborted and a token resolver still pending is given up on (its late answer
 * is ignored; the resolver itself is not cancelled). Failures are reported through `onFailure`,
 * never thrown.
 */
export class FollowUpRunner {
  readonly #options: ResolvedSlackOptions;
  readonly #onFailure: FollowUpFailure;
  readonly #pending = new PendingSet();

  constructor(options: ResolvedSlackOptions, onFailure: FollowUpFailure) {
    this.#options = options;
    this.#onFailure = onFailure;
  }

  /** Follow-ups started and not yet settled. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Starts `followUp` for `event` without waiting for it. It is counted as pending at once, but
   * its work (token resolution included) begins on a later tick of the event loop, so nothing it
   * does, not even a token resolver that blocks synchronously, can delay the answer being sent.
   */
  start(event: RtEvent, followUp: FollowUp): void {
    const budget = timeoutSignal(
      this.#options.busySignalTimeoutMs,
      `busy signal ran past busySignalTimeoutMs (${this.#options.busySignalTimeoutMs} ms)`,
    );
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#send(event, followUp, budget.signal))
      .then(undefined, (error: unknown) => {
        try {
          this.#onFailure(event, followUp, error);
        } catch {
          // A failing reporter must not turn into an unhandled rejection.
        }
      })
      .finally(() => budget.clear());
    void this.#pending.track(task);
  }

  /**
   * Resolves once every follow-up started so far, and every one started while it waits, has
   * settled (each is time-bounded by `busySignalTimeoutMs`).
   */
  drain(): Promise<void> {
    return this.#pending.settled();
  }

  async #send(event: RtEvent, followUp: FollowUp, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
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
    let token: string;
    try {
      token = await abortable(
        resolveToken(this.#options.tokenResolver, installationOf(event)),
        signal,
      );
    } catch (error) {
      if (!signal.aborted || error !== signal.reason) throw error;
      throw new SlackTokenError('token resolver did not answer within busySignalTimeoutMs', {
        cause: error,
      });
    }
    await postJson(fetchImpl, {
      url: `${this.#options.apiUrl}${followUp.kind}`,
      body: { trigger_id: followUp.triggerId, view: followUp.view },
      token,
      signal,
      expectOk: true,
    });
  }
}
