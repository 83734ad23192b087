import {
  buildChatInputCommand,
  buildGatewayMessage,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type FakeDiscord,
  type FakeDiscordCall,
  type FakeGatewayEvent,
  startFakeDiscord,
} from '@rt/testing/discord';
import type { DemoConfig } from '../config/demo-config.js';
import { planTraffic } from '../simulator/traffic-plan.js';

/** One planned Discord delivery over the gateway, `atMs` after the start of the flood. */
export interface DiscordItem {
  readonly kind: 'message' | 'command';
  /** The message or interaction id (a snowflake). */
  readonly id: string;
  readonly atMs: number;
}

/**
 * Plans the Discord flood with the Slack plan's burst shape (its own seed): `discordMessages`
 * mentions of the bot and `discordCommands` `/ask` invocations, over the same duration.
 */
export function planDiscordTraffic(config: DemoConfig): DiscordItem[] {
  if (config.discordMessages + config.discordCommands === 0) return [];
  const plan = planTraffic({
    ...config,
    events: config.discordMessages,
    commands: config.discordCommands,
    clicks: 0,
    seed: (config.seed + 0x0d15c0) >>> 0,
  });
  return plan.items.map((item, index) => ({
    kind: item.kind === 'event' ? 'message' : 'command',
    id: String(810_000_000_000_000_000n + BigInt(index + 1)),
    atMs: item.atMs,
  }));
}

/** What Discord showed for one delivery, read from the fake REST's record. */
export interface DiscordOutcome {
  readonly item: DiscordItem;
  /** Replies to the message (or `@original` edits of the command) carrying a handler's answer. */
  readonly answers: number;
  /** Replies (or callbacks) carrying the busy text. */
  readonly busy: number;
  /** Commands: the interaction callbacks Discord received, with their type and latency. */
  readonly callbacks: readonly { readonly type: number; readonly latencyMs: number }[];
}

const BOT_TOKEN = 'demo-discord-token';

/**
 * Discord beside the Slack simulator: the fake REST API and the fake gateway from
 * `@rt/testing/discord`, with the real discord.js Client of the bot's Discord adapter connected to
 * it. It sends the planned mentions (MESSAGE_CREATE) and `/ask` commands (INTERACTION_CREATE) over
 * the gateway; Discord delivers at most once and never redelivers, so what the user sees is all
 * there is: the fake REST records the bot's replies, interaction callbacks and `@original` edits.
 */
export class DiscordSimulator {
  readonly #fake: FakeDiscord;
  readonly #sentAt = new Map<string, number>();
  readonly #items: DiscordItem[] = [];
  readonly busyText: string;
  /** What the bot's Discord adapter needs. */
  readonly credentials: {
    readonly apiUrl: string;
    readonly token: string;
    readonly applicationId: string;
    readonly publicKey: string;
  };

  private constructor(fake: FakeDiscord, busyText: string) {
    this.#fake = fake;
    this.busyText = busyText;
    this.credentials = {
      apiUrl: fake.rest.url,
      token: BOT_TOKEN,
      applicationId: DISCORD_TEST_IDS.applicationId,
      publicKey: createDiscordSigner().publicKey,
    };
  }

  /** Starts the fake REST API and gateway on 127.0.0.1. */
  static async start(busyText: string): Promise<DiscordSimulator> {
    const fake = await startFakeDiscord({
      rest: { tokens: [BOT_TOKEN] },
      gateway: { tokens: [BOT_TOKEN], heartbeatIntervalMs: 41_250 },
    });
    return new DiscordSimulator(fake, busyText);
  }

  /** Deliveries sent so far, by kind. */
  get sent(): { readonly messages: number; readonly commands: number } {
    let messages = 0;
    for (const item of this.#items) if (item.kind === 'message') messages += 1;
    return { messages, commands: this.#items.length - messages };
  }

  /** The fake gateway's record (connections, identifies, close codes). */
  get gatewayEvents(): readonly FakeGatewayEvent[] {
    return this.#fake.gateway.events;
  }

  /**
   * Sends `plan` over the gateway at its times; resolves when all was sent, or at once when
   * `signal` aborts (nothing more is sent).
   */
  async run(plan: readonly DiscordItem[], signal: AbortSignal): Promise<void> {
    const start = performance.now();
    for (const item of plan) {
      const wait = item.atMs - (performance.now() - start);
      if (wait > 0) await sleep(wait, signal);
      if (signal.aborted) return;
      this.#send(item);
    }
  }

  #send(item: DiscordItem): void {
    this.#items.push(item);
    this.#sentAt.set(item.id, Date.now());
    if (item.kind === 'message') {
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
    const command = buildChatInputCommand({
      id: item.id,
      name: 'ask',
      options: { question: `q${item.id.slice(-5)}` },
    });
    this.#fake.rest.knowInteraction(command);
    this.#fake.gateway.dispatch('INTERACTION_CREATE', command);
  }

  /** Live counts for the view: answers and busy signals the fake REST received so far. */
  counters(): { answered: number; busy: number; sentMessages: number; sentCommands: number } {
    let answered = 0;
    let busy = 0;
    for (const outcome of this.outcomes()) {
      if (outcome.answers > 0) answered += 1;
      else if (outcome.busy > 0) busy += 1;
    }
    const { messages, commands } = this.sent;
    return { answered, busy, sentMessages: messages, sentCommands: commands };
  }

  /** Per delivery sent, what Discord showed (from the fake REST's record). */
  outcomes(): DiscordOutcome[] {
    const replies = new Map<string, FakeDiscordCall[]>();
    const callbacks = new Map<string, FakeDiscordCall[]>();
    const edits = new Map<string, FakeDiscordCall[]>();
    const add = (map: Map<string, FakeDiscordCall[]>, key: string, call: FakeDiscordCall) => {
      const list = map.get(key) ?? [];
      list.push(call);
      map.set(key, list);
    };
    for (const call of this.#fake.rest.calls) {
      if (call.route === 'POST /channels/:channel/messages') {
        const ref = (call.body as { message_reference?: { message_id?: string } })
          ?.message_reference;
        if (ref?.message_id !== undefined) add(replies, ref.message_id, call);
      } else if (call.route === 'POST /interactions/:interaction/:token/callback') {
        add(callbacks, call.params.interaction ?? '', call);
      } else if (call.route === 'PATCH /webhooks/:application/:token/messages/:message') {
        add(edits, call.params.token ?? '', call);
      }
    }
    const contentOf = (call: FakeDiscordCall) =>
      (call.body as { content?: unknown; data?: { content?: unknown } } | undefined)?.content ??
      (call.body as { data?: { content?: unknown } } | undefined)?.data?.content;
    return this.#items.map((item) => {
      const sentAt = this.#sentAt.get(item.id) ?? 0;
      if (item.kind === 'message') {
        const calls = replies.get(item.id) ?? [];
        const busy = calls.filter((call) => contentOf(call) === this.busyText).length;
        return { item, answers: calls.length - busy, busy, callbacks: [] };
      }
      const own = callbacks.get(item.id) ?? [];
      const answers = (edits.get(`interaction-token-${item.id}`) ?? []).filter(
        (call) => contentOf(call) !== this.busyText,
      ).length;
      return {
        item,
        answers,
        busy: own.filter((call) => contentOf(call) === this.busyText).length,
        callbacks: own.map((call) => ({
          type: Number((call.body as { type?: unknown } | undefined)?.type),
          latencyMs: call.at - sentAt,
        })),
      };
    });
  }

  /**
   * The gateway connection's closes once the bot closed it (waits up to 2 s for the close to be
   * recorded: the bot's `destroy()` resolves when its side of the handshake is done).
   */
  async closes(): Promise<{ readonly code: number; readonly byClient: boolean }[]> {
    const closes = () =>
      this.#fake.gateway.events.flatMap((e) =>
        e.type === 'close' ? [{ code: e.code, byClient: e.byClient }] : [],
      );
    await this.#fake.gateway.waitFor('close', 1, 2000).catch(() => undefined);
    return closes();
  }

  /** Stops the fakes. Idempotent. */
  close(): Promise<void> {
    return this.#fake.close();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
