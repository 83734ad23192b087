import type { ServerResponse } from 'node:http';
import type { FakeDiscordCall } from './fake-rest.js';
import { json } from './fake-rest-answers.js';

/**
 * What the fake Discord REST enforces and remembers about message writes: the 2000-character
 * content limit (400, code 50035), a per-channel rate limit on creates and edits (429 with
 * `Retry-After` and `retry_after`), channel message edits (`PATCH /channels/:c/messages/:m`, 404
 * code 10008 for a message it never created), typing (`POST /channels/:c/typing`, 204), and the
 * current content of every message the bot created or edited.
 */

/** At most `limit` accepted message creates and edits per channel in any `windowMs`. */
export interface FakeDiscordRateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/** Discord's usual per-channel message budget (5 writes per 5 s), as a `messageRate`. */
export const DISCORD_CHANNEL_MESSAGE_RATE: FakeDiscordRateLimit = Object.freeze({
  limit: 5,
  windowMs: 5000,
});

/** One message as the fake holds it. */
export interface FakeDiscordMessage {
  readonly id: string;
  /** The channel; for interaction webhooks the interaction's token key `webhook:<token>`. */
  readonly channel: string;
  content: string;
  edits: number;
  /** The message it replies to (`message_reference.message_id` of its create), if any. */
  readonly replyTo: string | undefined;
}

/** Discord's content limit of one message. */
export const DISCORD_CONTENT_LIMIT = 2000;

type Write = 'create' | 'edit';

function writeOf(call: FakeDiscordCall): Write | undefined {
  switch (call.route) {
    case 'POST /channels/:channel/messages':
    case 'POST /webhooks/:application/:token':
      return 'create';
    case 'PATCH /channels/:channel/messages/:message':
    case 'PATCH /webhooks/:application/:token/messages/:message':
      return 'edit';
    default:
      return undefined;
  }
}

/** The rate-limit key of a write: its channel, or its interaction webhook. */
function keyOf(call: FakeDiscordCall): string {
  return call.params.channel ?? `webhook:${call.params.token ?? ''}`;
}

/** The fake's message-write rules and memory (see the module comment). */
export class FakeDiscordMessages {
  readonly #limit: FakeDiscordRateLimit | undefined;
  readonly #accepted = new Map<string, number[]>();
  readonly #messages = new Map<string, FakeDiscordMessage>();
  /** Writes refused with 429, and writes refused for their length. */
  refused = 0;
  tooLong = 0;
  /** Channels that received `POST /channels/:c/typing`, one entry per call. */
  readonly typing: string[] = [];

  constructor(limit?: FakeDiscordRateLimit) {
    this.#limit = limit;
  }

  /** Every message the bot created, in creation order, with its current content. */
  all(): FakeDiscordMessage[] {
    return [...this.#messages.values()];
  }

  get(id: string): FakeDiscordMessage | undefined {
    return this.#messages.get(id);
  }

  /**
   * Answers `call` itself when a rule refuses it or it is one of the routes this module owns
   * (true), else lets the fake answer it (false), remembering the content of what was written.
   */
  intercept(call: FakeDiscordCall, res: ServerResponse): boolean {
    if (call.route === 'POST /channels/:channel/typing') {
      this.typing.push(call.params.channel as string);
      res.writeHead(204);
      res.end();
      return true;
    }
    const write = writeOf(call);
    if (write === undefined) return false;
    const body = (call.body ?? {}) as Record<string, unknown>;
    const content = typeof body.content === 'string' ? body.content : undefined;
    if (content !== undefined && content.length > DISCORD_CONTENT_LIMIT) {
      this.tooLong += 1;
      json(res, 400, {
        message: 'Invalid Form Body',
        code: 50035,
        errors: {
          content: {
            _errors: [
              { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' },
            ],
          },
        },
      });
      return true;
    }
    const retryAfterMs = this.#limited(keyOf(call));
    if (retryAfterMs !== undefined) {
      this.refused += 1;
      const seconds = (retryAfterMs / 1000).toFixed(3);
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': seconds });
      res.end(
        JSON.stringify({
          message: 'You are being rate limited.',
          retry_after: Number(seconds),
          global: false,
        }),
      );
      return true;
    }
    if (call.route === 'PATCH /channels/:channel/messages/:message') {
      const message = this.#messages.get(call.params.message as string);
      if (message === undefined) {
        json(res, 404, { message: 'Unknown Message', code: 10008 });
        return true;
      }
      if (content !== undefined) message.content = content;
      message.edits += 1;
      json(res, 200, {
        id: message.id,
        type: 0,
        channel_id: call.params.channel,
        content: message.content,
        embeds: body.embeds ?? [],
        components: body.components ?? [],
        edited_timestamp: new Date().toISOString(),
      });
      return true;
    }
    this.#remember(call, write, content, res);
    return false;
  }

  /** Ms until the channel's window frees when it is full, else counts the write. */
  #limited(key: string): number | undefined {
    const limit = this.#limit;
    if (limit === undefined) return undefined;
    const now = Date.now();
    const recent = (this.#accepted.get(key) ?? []).filter((at) => at > now - limit.windowMs);
    this.#accepted.set(key, recent);
    if (recent.length >= limit.limit)
      return Math.max(1, (recent[0] as number) + limit.windowMs - now);
    recent.push(now);
    return undefined;
  }

  /** Reads the id the fake answers with (its JSON body) and keeps the message's content. */
  #remember(call: FakeDiscordCall, write: Write, content: string | undefined, res: ServerResponse) {
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    (res as { end: (chunk?: unknown) => ServerResponse }).end = (chunk?: unknown) => {
      try {
        const answered = JSON.parse(String(chunk)) as { id?: unknown; content?: unknown };
        if (res.statusCode === 200 && typeof answered.id === 'string') {
          const known = this.#messages.get(answered.id);
          if (known !== undefined && write === 'edit') {
            if (content !== undefined) known.content = content;
            known.edits += 1;
          } else if (known === undefined) {
            const reference = (call.body as { message_reference?: { message_id?: unknown } })
              ?.message_reference?.message_id;
            this.#messages.set(answered.id, {
              id: answered.id,
              channel: keyOf(call),
              content: content ?? '',
              edits: write === 'edit' ? 1 : 0,
              replyTo: typeof reference === 'string' ? reference : undefined,
            });
          }
        }
      } catch {
        // Not JSON: nothing to remember.
      }
      return end(chunk);
    };
  }
}
