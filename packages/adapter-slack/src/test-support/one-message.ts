import type { CreateRuntimeOptions, Observation, Runtime, State } from '@rt/core';
import type { SlackTestPayload } from '@rt/testing/slack';
import type { SlackAdapterOptions } from '../options.js';
import { startHarness } from './harness.js';
import { startSocketHarness } from './socket-harness.js';

/** How a transport answered one delivery: acknowledged, or refused so that Slack redelivers. */
export type DeliveryAnswer = 'acked' | 'refused';

/** A runtime with a Slack adapter behind one transport, for the one-message tests. */
export interface OneMessageBot {
  readonly runtime: Runtime;
  readonly observations: readonly Observation[];
  /**
   * Delivers `payload` and resolves with the transport's answer: HTTP `200` is `acked`, `503`
   * `refused`; over Socket Mode an ack is `acked`, and a withheld ack (observed as the
   * delivery's `admission_rejected` or `prelude_error`) is `refused`. `retry` marks it as Slack's
   * redelivery attempt (HTTP `x-slack-retry-num`; Socket Mode sends it again, as Slack does).
   */
  deliver(payload: SlackTestPayload, retry?: number): Promise<DeliveryAnswer>;
  /** Resolves once `count` deliveries have their terminal outcome (`dispatch_finished`). */
  finished(count: number): Promise<void>;
  close(): Promise<void>;
}

/** What a one-message test starts a bot with. */
export interface OneMessageBotOptions {
  readonly adapter?: Partial<SlackAdapterOptions>;
  readonly runtime?: Partial<Omit<CreateRuntimeOptions, 'state'>>;
  readonly state?: State;
}

/** A transport the one-message suite runs over. */
export interface OneMessageTransport {
  readonly name: string;
  start(options?: OneMessageBotOptions): Promise<OneMessageBot>;
}

const isFinished = (o: Observation) => o.type === 'dispatch_finished';

/** The Events API over HTTP, through the adapter's web-standard handler. */
export const HTTP_TRANSPORT: OneMessageTransport = {
  name: 'HTTP',
  async start(options = {}) {
    const h = await startHarness(options);
    return {
      runtime: h.runtime,
      observations: h.observations,
      async deliver(payload, retry) {
        const headers =
          retry === undefined
            ? undefined
            : { 'x-slack-retry-num': String(retry), 'x-slack-retry-reason': 'http_timeout' };
        const response = await h.send(payload, headers);
        if (response.status === 200) return 'acked';
        if (response.status === 503) return 'refused';
        throw new Error(`unexpected HTTP status ${response.status}`);
      },
      async finished(count) {
        await h.observed(() => h.observations.filter(isFinished).length >= count);
      },
      close: () => h.close(),
    };
  },
};

/** Socket Mode, with the real `@slack/socket-mode` client against the fake server. */
export const SOCKET_MODE_TRANSPORT: OneMessageTransport = {
  name: 'Socket Mode',
  async start(options = {}) {
    const h = await startSocketHarness(options);
    return {
      runtime: h.runtime,
      observations: h.observations,
      async deliver(payload) {
        const from = h.observations.length;
        const eventId = (payload.data as { event_id?: string }).event_id;
        const envelope = h.fake.send(payload);
        const acked = h.fake.waitForAck(envelope.envelope_id).then(() => 'acked' as const);
        const refused = h
          .observed(
            (o) =>
              h.observations.indexOf(o) >= from &&
              (o.type === 'admission_rejected' || o.type === 'prelude_error') &&
              o.event.id === eventId,
          )
          .then(() => 'refused' as const);
        // The loser keeps its own timer; its late rejection is of no interest.
        acked.catch(() => {});
        refused.catch(() => {});
        return Promise.race([acked, refused]);
      },
      async finished(count) {
        await h.observed(() => h.observations.filter(isFinished).length >= count);
      },
      close: () => h.close(),
    };
  },
};
