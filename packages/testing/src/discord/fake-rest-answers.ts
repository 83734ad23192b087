import type { ServerResponse } from 'node:http';
import type { FakeDiscordCall, FakeDiscordRestOptions } from './fake-rest.js';

/** Writes a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** 204 without a content type: @discordjs/rest parses any JSON content type, and an empty body crashes it. */
function noContent(res: ServerResponse): void {
  res.writeHead(204);
  res.end();
}

/**
 * What the fake Discord REST remembers (interaction channels, seeded history, ids handed out) and
 * how it answers each route plausibly.
 */
export class FakeDiscordStore {
  readonly #channels = new Map<string, Record<string, unknown>[]>();
  readonly #interactionChannels = new Map<string, string>();
  /** Registered commands per `application` or `application/guild`, as the last PUT left them. */
  readonly #commands = new Map<string, Record<string, unknown>[]>();
  readonly #botUserId: string;
  readonly #gatewayUrl: string | undefined;
  #seq = 0;

  constructor(options: FakeDiscordRestOptions) {
    this.#botUserId = options.botUserId ?? '100000000000000001';
    this.#gatewayUrl = options.gatewayUrl;
  }

  /** Remembers an interaction's channel, so messages sent with its token land there. */
  knowInteraction(interaction: { readonly token: string; readonly channel_id?: unknown }): void {
    if (typeof interaction.channel_id === 'string') {
      this.#interactionChannels.set(interaction.token, interaction.channel_id);
    }
  }

  /** Seeds a channel's messages, oldest first. */
  seedMessages(channel: string, messages: readonly Record<string, unknown>[]): void {
    this.#channels.set(channel, [...messages]);
  }

  #nextId(): string {
    this.#seq += 1;
    return String(700_000_000_000_000_000n + BigInt(this.#seq));
  }

  #message(
    channel: string,
    body: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Record<string, unknown> {
    return {
      id: this.#nextId(),
      type: 0,
      channel_id: channel,
      content: typeof body.content === 'string' ? body.content : '',
      embeds: body.embeds ?? [],
      components: body.components ?? [],
      flags: body.flags ?? 0,
      author: { id: this.#botUserId, username: 'fake-bot', discriminator: '0', bot: true },
      timestamp: new Date().toISOString(),
      ...(body.message_reference !== undefined
        ? { message_reference: body.message_reference }
        : {}),
      ...extra,
    };
  }

  /** Answers `call` as Discord would. */
  answer(call: FakeDiscordCall, res: ServerResponse): void {
    const body = (call.body ?? {}) as Record<string, unknown>;
    const p = call.params;
    switch (call.route) {
      case 'POST /webhooks/:application/:token': {
        const channel = this.#interactionChannels.get(p.token as string) ?? '0';
        json(
          res,
          200,
          this.#message(channel, body, {
            webhook_id: p.application,
            application_id: p.application,
          }),
        );
        return;
      }
      case 'GET /webhooks/:application/:token/messages/:message':
      case 'PATCH /webhooks/:application/:token/messages/:message': {
        const channel = this.#interactionChannels.get(p.token as string) ?? '0';
        const id =
          p.message === '@original'
            ? `original-${(p.token as string).slice(-8)}`
            : (p.message as string);
        json(res, 200, { ...this.#message(channel, body, { webhook_id: p.application }), id });
        return;
      }
      case 'DELETE /webhooks/:application/:token/messages/:message':
      case 'DELETE /channels/:channel/messages/:message':
      case 'POST /channels/:channel/typing':
      case 'POST /interactions/:interaction/:token/callback':
      case 'PUT /channels/:channel/messages/:message/reactions/:emoji/@me':
      case 'DELETE /channels/:channel/messages/:message/reactions/:emoji/@me':
        noContent(res);
        return;
      case 'POST /channels/:channel/messages':
        json(res, 200, this.#message(p.channel as string, body));
        return;
      case 'PATCH /channels/:channel/messages/:message':
        json(res, 200, { ...this.#message(p.channel as string, body), id: p.message });
        return;
      case 'POST /users/@me/channels':
        json(res, 200, {
          id: `dm-${String(body.recipient_id ?? '')}`,
          type: 1,
          recipients: [{ id: body.recipient_id }],
        });
        return;
      case 'GET /channels/:channel/messages': {
        const all = this.#channels.get(p.channel as string) ?? [];
        const limit = Math.min(100, Number(call.query.limit ?? 50) || 50);
        const newestFirst = [...all].reverse();
        const start =
          call.query.before === undefined
            ? 0
            : newestFirst.findIndex((m) => m.id === call.query.before) + 1;
        json(
          res,
          200,
          start <= 0 && call.query.before !== undefined
            ? []
            : newestFirst.slice(start, start + limit),
        );
        return;
      }
      case 'POST /channels/:channel/threads':
      case 'POST /channels/:channel/messages/:message/threads':
        json(res, 201, {
          id: p.message ?? this.#nextId(),
          type: body.type ?? 11,
          parent_id: p.channel,
          name: body.name,
          owner_id: this.#botUserId,
        });
        return;
      case 'PUT /applications/:application/commands':
      case 'PUT /applications/:application/guilds/:guild/commands': {
        const list = Array.isArray(call.body) ? (call.body as Record<string, unknown>[]) : [];
        const registered = list.map((command) => ({
          id: this.#nextId(),
          application_id: p.application,
          version: '1',
          type: 1,
          ...(p.guild !== undefined ? { guild_id: p.guild } : {}),
          ...command,
        }));
        this.#commands.set(`${p.application}/${p.guild ?? ''}`, registered);
        json(res, 200, registered);
        return;
      }
      case 'GET /applications/:application/commands':
      case 'GET /applications/:application/guilds/:guild/commands':
        json(res, 200, this.#commands.get(`${p.application}/${p.guild ?? ''}`) ?? []);
        return;
      case 'GET /gateway/bot':
        json(res, 200, {
          url: this.#gatewayUrl ?? 'ws://127.0.0.1:1',
          shards: 1,
          session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 },
        });
        return;
      default:
        json(res, 404, { message: '404: Not Found', code: 0 });
    }
  }
}
