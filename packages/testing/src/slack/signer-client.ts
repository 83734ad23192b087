import type { SlackTestPayload } from './payload.js';
import { createSlackSigner } from './sign.js';

/** Slack waits this long for an acknowledgement, then counts the delivery as failed. */
export const SLACK_ACK_TIMEOUT_MS = 3000;

/** How one delivery attempt ended, as Slack would see it. */
export type DeliveryResult =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly body: string;
      readonly contentType: string | null;
      /** The response carried `x-slack-no-retry: 1` (Slack would drop the event). */
      readonly noRetry: boolean;
      readonly latencyMs: number;
    }
  /**
   * No complete answer within `SLACK_ACK_TIMEOUT_MS` by the simulator's clock: the abort fired,
   * or the response was read after the deadline (a starved timer cannot turn a late answer into
   * an ack). `lateStatus` is the status of a late response, if one arrived.
   */
  | { readonly kind: 'timeout'; readonly latencyMs: number; readonly lateStatus?: number }
  | { readonly kind: 'connection_failed'; readonly latencyMs: number; readonly error: unknown };

/** Extra headers of a redelivery. */
export interface RetryHeaders {
  readonly 'x-slack-retry-num': string;
  readonly 'x-slack-retry-reason': string;
}

/**
 * Delivers payloads the way Slack does: a POST with the payload's content type, signed afresh for
 * every attempt (v0 HMAC-SHA256 over `v0:{timestamp}:{body}`), abandoned after
 * `SLACK_ACK_TIMEOUT_MS` with an `AbortSignal` timeout. A response read completely but later than
 * `SLACK_ACK_TIMEOUT_MS` after the request started (by `now`, default `performance.now`) is a
 * timeout too, as it would be for Slack. Never throws.
 */
export class SignerClient {
  readonly #url: string;
  readonly #secret: string;
  readonly #now: () => number;

  constructor(url: string, secret: string, now: () => number = () => performance.now()) {
    this.#url = url;
    this.#secret = secret;
    this.#now = now;
  }

  async deliver(payload: SlackTestPayload, retry?: RetryHeaders): Promise<DeliveryResult> {
    const started = this.#now();
    const latency = () => Math.round(this.#now() - started);
    const signal = AbortSignal.timeout(SLACK_ACK_TIMEOUT_MS);
    try {
      const response = await fetch(this.#url, {
        method: 'POST',
        headers: {
          'content-type': payload.contentType,
          ...createSlackSigner(this.#secret).sign(payload.body),
          ...retry,
        },
        body: payload.body,
        signal,
      });
      const body = await response.text();
      const latencyMs = latency();
      if (latencyMs > SLACK_ACK_TIMEOUT_MS) {
        return { kind: 'timeout', latencyMs, lateStatus: response.status };
      }
      return {
        kind: 'response',
        status: response.status,
        body,
        contentType: response.headers.get('content-type'),
        noRetry: response.headers.get('x-slack-no-retry') === '1',
        latencyMs,
      };
    } catch (error) {
      if (signal.aborted) return { kind: 'timeout', latencyMs: latency() };
      return { kind: 'connection_failed', latencyMs: latency(), error };
    }
  }
}
