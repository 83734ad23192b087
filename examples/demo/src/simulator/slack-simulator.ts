import type { DeliveryResult, SignerClient } from '@rt/testing/slack';
import {
  buildAppMentionEvent,
  buildBlockActions,
  buildSlashCommand,
  RedeliveryScheduler,
  type RetryReason,
  type SlackTestPayload,
} from '@rt/testing/slack';
import type { EventRecord, SimulatorLedger } from './ledger.js';
import { sleep } from './sleep.js';
import type { PlannedItem, TrafficPlan } from './traffic-plan.js';
import type { SimulatedWebApi } from './web-api.js';

/** Channel the demo's conversations happen in (its mentions may be answered by native streams). */
export const DEMO_CHANNEL = 'C0DEMO';

/**
 * A second channel for every third mention, where the simulated Slack refuses native streaming
 * (`chat.startStream` answers `SLACK_STREAM_REFUSALS`' error), so the bot's streamed answers there
 * take the `chat.update` path.
 */
export const NO_STREAM_CHANNEL = 'C0NOSTREAM';

/** What the simulated Web API answers `chat.startStream` with in a channel, by channel id. */
export const SLACK_STREAM_REFUSALS: Readonly<Record<string, string>> = Object.freeze({
  [NO_STREAM_CHANNEL]: 'feature_not_enabled',
});

/** The channel of the `index`-th delivery's mention (1-based): every third is `NO_STREAM_CHANNEL`. */
export function mentionChannel(index: number): string {
  return index % 3 === 0 ? NO_STREAM_CHANNEL : DEMO_CHANNEL;
}

function retryReasonOf(result: DeliveryResult): RetryReason {
  if (result.kind === 'timeout') return 'http_timeout';
  if (result.kind === 'connection_failed') return 'connection_failed';
  return 'http_error';
}

/** A unique top-level message ts per planned item (each mention starts its own thread). */
export function messageTs(index: number): string {
  return `${1_800_000_000 + index}.${String(index % 1_000_000).padStart(6, '0')}`;
}

/**
 * Behaves like Slack towards the bot: sends the planned deliveries on time, signs each attempt,
 * gives up on an acknowledgement after 3 s, redelivers failed Events API deliveries on Slack's
 * schedule with `x-slack-retry-num`/`x-slack-retry-reason`, and never redelivers slash commands
 * or clicks.
 */
export class SlackSimulator {
  readonly scheduler: RedeliveryScheduler;
  /** True once the flood is over: every planned first delivery sent, or the run stopped. */
  allSent = false;
  readonly #client: SignerClient;
  readonly #ledger: SimulatorLedger;
  readonly #webApi: SimulatedWebApi;
  #index = 0;

  constructor(
    client: SignerClient,
    ledger: SimulatorLedger,
    webApi: SimulatedWebApi,
    timeScale: number,
  ) {
    this.#client = client;
    this.#ledger = ledger;
    this.#webApi = webApi;
    this.scheduler = new RedeliveryScheduler(timeScale);
  }

  /**
   * Sends every first delivery of `plan` at its time, then resolves once every delivery,
   * redelivery and acknowledgement has finished (Slack has nothing left to send). `signal` stops
   * the run early: planned deliveries not yet sent are never sent, and every scheduled
   * redelivery (and any a running delivery would schedule later) is dropped and its event marked
   * `retry-cancelled`; deliveries already on the wire finish.
   */
  async run(plan: TrafficPlan, signal: AbortSignal): Promise<void> {
    const stop = () => this.scheduler.cancel();
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    try {
      const start = performance.now();
      for (const item of plan.items) {
        const wait = start + item.atMs - performance.now();
        if (wait > 0) await sleep(wait, signal);
        if (signal.aborted) break;
        this.scheduler.track(this.#send(item));
      }
      this.allSent = true;
      await this.scheduler.idle();
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  #send(item: PlannedItem): Promise<void> {
    this.#index += 1;
    const ts = messageTs(this.#index);
    switch (item.kind) {
      case 'event': {
        const channel = mentionChannel(this.#index);
        const payload = buildAppMentionEvent({
          eventId: item.id,
          channel,
          ts,
          text: `<@U0BOT> question ${this.#index}: summarise burst ${item.burst + 1}`,
        });
        return this.#attempt(this.#ledger.addEvent(item.id, `${channel}:${ts}`), payload, 0);
      }
      case 'command': {
        const responseUrl = this.#webApi.responseUrl();
        const payload = buildSlashCommand({
          command: '/ask',
          text: `what happened in burst ${item.burst + 1}?`,
          channelId: DEMO_CHANNEL,
          triggerId: item.id,
          responseUrl,
        });
        return this.#invoke(item, payload, responseUrl);
      }
      case 'click': {
        const responseUrl = this.#webApi.responseUrl();
        const payload = buildBlockActions({
          actionId: 'approve',
          value: `burst-${item.burst + 1}`,
          channelId: DEMO_CHANNEL,
          messageTs: ts,
          triggerId: item.id,
          responseUrl,
        });
        return this.#invoke(item, payload, responseUrl);
      }
    }
  }

  async #attempt(
    record: EventRecord,
    payload: SlackTestPayload,
    attempt: number,
    reason?: RetryReason,
  ): Promise<void> {
    const result = await this.#client.deliver(
      payload,
      attempt === 0
        ? undefined
        : { 'x-slack-retry-num': String(attempt), 'x-slack-retry-reason': reason ?? 'http_error' },
    );
    if (this.#ledger.recordAttempt(record, attempt, result)) return;
    if (result.kind === 'response' && result.noRetry) {
      this.#ledger.markExhausted(record);
      return;
    }
    const next = attempt + 1;
    const scheduled = this.scheduler.schedule(
      next,
      () => this.#attempt(record, payload, next, retryReasonOf(result)),
      () => this.#ledger.markRetryCancelled(record),
    );
    if (scheduled === 'scheduled') this.#ledger.markAwaitingRetry(record);
    else if (scheduled === 'exhausted') this.#ledger.markExhausted(record);
    else this.#ledger.markRetryCancelled(record);
  }

  async #invoke(item: PlannedItem, payload: SlackTestPayload, responseUrl: string): Promise<void> {
    const record = this.#ledger.addInvocation(
      item.id,
      item.kind === 'command' ? 'command' : 'click',
      responseUrl,
    );
    this.#ledger.recordInvocationAck(record, await this.#client.deliver(payload));
  }
}
