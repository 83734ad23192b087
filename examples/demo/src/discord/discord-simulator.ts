import {
  buildAutocomplete,
  buildButton,
  buildChatInputCommand,
  buildGatewayMessage,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type DiscordSigner,
  type FakeDiscord,
  type FakeDiscordMessage,
  type FakeGatewayEvent,
  startFakeDiscord,
} from '@rt/testing/discord';
import { sleep } from '../simulator/sleep.js';
import type { DiscordItem } from './discord-plan.js';
import { DiscordRecord } from './discord-record.js';
import { InteractionClient } from './interaction-client.js';

const BOT_TOKEN = 'demo-discord-token';

/** What the bot's Discord adapter needs to talk to the simulator. */
export interface DiscordCredentials {
  /** The fake REST API (`apiUrl`); its `GET /gateway/bot` names the fake gateway. */
  readonly apiUrl: string;
  readonly token: string;
  readonly applicationId: string;
  /** The simulator signs interactions with the private half of this key. */
  readonly publicKey: string;
}

/**
 * Discord beside the Slack simulator: the fake REST API and the fake gateway of
 * `@rt/testing/discord`, with the real discord.js Client of the bot's Discord adapter connected to
 * the gateway. Mentions arrive as `MESSAGE_CREATE` over the gateway; `/ask`, the `approve` button
 * and `/ask`'s autocomplete as signed HTTP interactions POSTed to the bot's Interactions Endpoint
 * (an app with an endpoint URL gets no interactions over the gateway). Discord delivers each once
 * and never redelivers, so what the user sees is all there is: the HTTP answers and the bot's
 * REST calls (replies, `@original` edits, follow-ups) are the simulator's record.
 */
export class DiscordSimulator {
  readonly record: DiscordRecord;
  readonly credentials: DiscordCredentials;
  readonly #fake: FakeDiscord;
  readonly #signer: DiscordSigner;
  readonly #pending = new Set<Promise<void>>();
  #client: InteractionClient | undefined;

  private constructor(fake: FakeDiscord, signer: DiscordSigner, refusalTexts: readonly string[]) {
    this.#fake = fake;
    this.#signer = signer;
    this.record = new DiscordRecord(fake.rest, refusalTexts);
    this.credentials = {
      apiUrl: fake.rest.url,
      token: BOT_TOKEN,
      applicationId: DISCORD_TEST_IDS.applicationId,
      publicKey: signer.publicKey,
    };
  }

  /** Starts the fake REST API and gateway on 127.0.0.1. `refusalTexts`: busy, unavailable. */
  static async start(refusalTexts: readonly string[]): Promise<DiscordSimulator> {
    const fake = await startFakeDiscord({
      rest: { tokens: [BOT_TOKEN] },
      gateway: { tokens: [BOT_TOKEN], heartbeatIntervalMs: 41_250 },
    });
    return new DiscordSimulator(fake, createDiscordSigner(), refusalTexts);
  }

  /** Where interactions go: the bot's Interactions Endpoint URL. Call before `run`. */
  connect(interactionsUrl: string): void {
    this.#client = new InteractionClient(interactionsUrl, this.#signer);
  }

  /** Calls the fake REST refused as Discord would (400 Invalid Form Body). */
  get rejections(): FakeDiscord['rest']['rejections'] {
    return this.#fake.rest.rejections;
  }

  /** How many calls carried a message, callback or modal body the fake validated. */
  get validatedPayloads(): number {
    return this.#fake.rest.calls.filter(
      (call) =>
        call.method !== 'GET' &&
        call.method !== 'DELETE' &&
        call.body !== undefined &&
        !call.route.includes('/reactions/'),
    ).length;
  }

  /** The bot's messages with their final content and what each replies to (the fake's record). */
  messages(): FakeDiscordMessage[] {
    return this.#fake.rest.messages.all();
  }

  /** The fake gateway's record (connections, identifies, close codes). */
  get gatewayEvents(): readonly FakeGatewayEvent[] {
    return this.#fake.gateway.events;
  }

  /**
   * Sends `plan` at its times, then resolves once every interaction POST has been answered (or
   * timed out). `signal` stops it early: nothing more is sent; POSTs on the wire finish.
   */
  async run(plan: readonly DiscordItem[], signal: AbortSignal): Promise<void> {
    const start = performance.now();
    for (const item of plan) {
      const wait = item.atMs - (performance.now() - start);
      if (wait > 0) await sleep(wait, signal);
      if (signal.aborted) break;
      this.#send(item);
    }
    await Promise.all(this.#pending);
  }

  #send(item: DiscordItem): void {
    if (item.kind === 'message') {
      this.record.add(item);
      this.#fake.gateway.dispatch(
        'MESSAGE_CREATE',
        buildGatewayMessage({
          id: item.id,
          content: `question ${item.id.slice(-5)}`,
          mentions: [DISCORD_TEST_IDS.applicationId],
        }),
      );
      return;
    }
    const token = `demo-token-${item.id}`;
    const interaction =
      item.kind === 'command'
        ? buildChatInputCommand({
            id: item.id,
            token,
            name: 'ask',
            options: { question: `q${item.id.slice(-5)}` },
          })
        : item.kind === 'click'
          ? buildButton({ id: item.id, token, customId: 'approve' })
          : buildAutocomplete({
              id: item.id,
              token,
              name: 'ask',
              focused: { name: 'question', value: 'ca' },
            });
    // Follow-ups and edits made with this token land in the interaction's channel.
    this.#fake.rest.knowInteraction(interaction);
    const outcome = this.record.add(item, token);
    const client = this.#client;
    if (client === undefined) throw new Error('DiscordSimulator.connect was not called');
    const posted = client.deliver(interaction).then((result) => {
      this.record.recordResult(outcome, result);
    });
    this.#pending.add(posted);
    void posted.finally(() => this.#pending.delete(posted));
  }

  /**
   * The gateway connection's closes once the bot closed it (waits up to 2 s for the close to be
   * recorded: the bot's `destroy()` resolves when its side of the handshake is done).
   */
  async closes(): Promise<{ readonly code: number; readonly byClient: boolean }[]> {
    await this.#fake.gateway.waitFor('close', 1, 2000).catch(() => undefined);
    return this.#fake.gateway.events.flatMap((e) =>
      e.type === 'close' ? [{ code: e.code, byClient: e.byClient }] : [],
    );
  }

  /** Stops the fakes. Idempotent. */
  close(): Promise<void> {
    return this.#fake.close();
  }
}
