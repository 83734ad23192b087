/**
 * What the fake Slack remembers of the bot's messages: their text as posted, updated and
 * streamed, the native streaming methods with their state errors, the assistant thread methods,
 * and per-method rate limits answered like Slack (HTTP 429, `Retry-After` in whole seconds).
 */

/** A rate limit of one method: at most `limit` accepted calls per token in any `windowMs`. */
export interface FakeSlackRateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * Slack's published per-method tiers for the methods a streamed reply calls, per workspace (the
 * methods' reference pages: `chat.update` Tier 3, 50+ a minute; `chat.startStream` and
 * `chat.stopStream` Tier 2, 20+; `chat.appendStream` Tier 4, 100+), at their floor, to pass as
 * `rateLimits` when a test wants the fake to refuse what Slack would.
 */
export const SLACK_STREAM_RATE_LIMITS: Readonly<Record<string, FakeSlackRateLimit>> = Object.freeze(
  {
    'chat.update': { limit: 50, windowMs: 60_000 },
    'chat.startStream': { limit: 20, windowMs: 60_000 },
    'chat.appendStream': { limit: 100, windowMs: 60_000 },
    'chat.stopStream': { limit: 20, windowMs: 60_000 },
  },
);

/** One bot message as the fake holds it. */
export interface FakeSlackMessage {
  readonly channel: string;
  readonly ts: string;
  readonly threadTs: string | undefined;
  /** Its text now: posted, replaced by `chat.update`, or grown by `chat.appendStream`. */
  text: string;
  /** `open` while a native stream may append, `stopped` after `chat.stopStream` or a user's stop. */
  stream: 'open' | 'stopped' | undefined;
  /** Who stopped the native stream: the app (`chat.stopStream`) or the user (`stopByUser`). */
  stoppedBy?: 'app' | 'user';
  /** The native stream's recipient (`recipient_user_id`, `recipient_team_id`). */
  recipient: { readonly user?: string; readonly team?: string } | undefined;
  /** `chat.update` and `chat.appendStream` calls it received. */
  edits: number;
}

/** One `assistant.threads.*` call on a thread. */
export interface FakeAssistantCall {
  readonly method: 'setStatus' | 'setSuggestedPrompts' | 'setTitle';
  readonly channel: string;
  readonly threadTs: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** Slack's text limit of `chat.postMessage`/`chat.update` (`msg_too_long` past it). */
export const SLACK_TEXT_LIMIT = 40_000;

const STREAM_STATE_ERROR = 'message_not_in_streaming_state';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The fake's message store and rate limiter (see the module comment). */
export class FakeSlackMessages {
  readonly #messages = new Map<string, FakeSlackMessage>();
  readonly #limits: Readonly<Record<string, FakeSlackRateLimit>>;
  readonly #accepted = new Map<string, number[]>();
  /** Calls refused with 429, per method. */
  readonly refused = new Map<string, number>();
  /** Every `assistant.threads.*` call, in arrival order. */
  readonly assistant: FakeAssistantCall[] = [];

  readonly #streamRefusals: Readonly<Record<string, string>>;

  /** `streamRefusals`: the error `chat.startStream` answers in a channel, by channel id. */
  constructor(
    limits: Readonly<Record<string, FakeSlackRateLimit>> = {},
    streamRefusals: Readonly<Record<string, string>> = {},
  ) {
    this.#limits = limits;
    this.#streamRefusals = streamRefusals;
  }

  /** The message at `channel`/`ts`, if the bot posted it here. */
  get(channel: string, ts: string): FakeSlackMessage | undefined {
    return this.#messages.get(`${channel}:${ts}`);
  }

  /** Every bot message, in posting order. */
  all(): FakeSlackMessage[] {
    return [...this.#messages.values()];
  }

  /**
   * Seconds the caller must wait when `method` is over its rate limit for `token` (the call is
   * refused and not counted), else `undefined` (the call is counted).
   */
  limited(method: string, token: string): number | undefined {
    const limit = this.#limits[method];
    if (limit === undefined) return undefined;
    const key = `${method} ${token}`;
    const now = Date.now();
    const recent = (this.#accepted.get(key) ?? []).filter((at) => at > now - limit.windowMs);
    if (recent.length >= limit.limit) {
      this.#accepted.set(key, recent);
      this.refused.set(method, (this.refused.get(method) ?? 0) + 1);
      const freeAt = (recent[0] as number) + limit.windowMs;
      return Math.max(1, Math.ceil((freeAt - now) / 1000));
    }
    recent.push(now);
    this.#accepted.set(key, recent);
    return undefined;
  }

  /**
   * The user pressed stop on the native stream at `channel`/`ts`: it stops growing, and a later
   * `chat.appendStream` answers `stopped_by_user` (Slack's documented error). Returns false when
   * there is no open stream there.
   */
  stopByUser(channel: string, ts: string): boolean {
    const message = this.get(channel, ts);
    if (message?.stream !== 'open') return false;
    message.stream = 'stopped';
    message.stoppedBy = 'user';
    return true;
  }

  /**
   * A refusal of `method` before it is answered, else `undefined`: `msg_too_long` for a text over
   * `SLACK_TEXT_LIMIT`, `streaming_state_conflict` for a `chat.update` of a message that is still
   * streaming.
   */
  refuse(method: string, args: Readonly<Record<string, unknown>>): string | undefined {
    if (method !== 'chat.postMessage' && method !== 'chat.update') return undefined;
    if (method === 'chat.update') {
      const message = this.get(String(args.channel ?? ''), String(args.ts ?? ''));
      if (message?.stream === 'open') return 'streaming_state_conflict';
    }
    const body = typeof args.text === 'string' ? args.text : '';
    return body.length > SLACK_TEXT_LIMIT ? 'msg_too_long' : undefined;
  }

  /** Records what an answered `chat.postMessage` or `chat.update` did. */
  after(
    method: string,
    args: Readonly<Record<string, unknown>>,
    answer: Readonly<Record<string, unknown>>,
  ): void {
    if (answer.ok !== true) return;
    const channel = String(args.channel ?? '');
    if (method === 'chat.postMessage') {
      const ts = String(answer.ts);
      this.#messages.set(`${channel}:${ts}`, {
        channel,
        ts,
        threadTs: text(args.thread_ts),
        text: typeof args.text === 'string' ? args.text : '',
        stream: undefined,
        recipient: undefined,
        edits: 0,
      });
    } else if (method === 'chat.update') {
      const message = this.get(channel, String(args.ts));
      if (message === undefined) return;
      message.text = typeof args.text === 'string' ? args.text : message.text;
      message.edits += 1;
    }
  }

  /**
   * Answers the streaming and assistant methods (`undefined` for any other): `chat.startStream`
   * answers a channel's `streamRefusals` error there, needs `thread_ts` and, outside a DM (`D...`), `recipient_user_id` and `recipient_team_id`
   * (`missing_recipient_user_id`, `missing_recipient_team_id`); `chat.appendStream` needs text
   * (`markdown_text_or_chunks_required`); both it and `chat.stopStream` answer `message_not_found`
   * for an unknown message and `message_not_in_streaming_state` once it was stopped (appending after
   * the stop, stopping twice), except an append after a user's stop: `stopped_by_user`. The names
   * are Slack's documented ones; which applies to a second stop is the fake's reading of them
   * (docs/streaming.md, "What is documented").
   */
  answer(
    method: string,
    args: Readonly<Record<string, unknown>>,
    nextTs: () => string,
  ): Record<string, unknown> | undefined {
    const channel = String(args.channel ?? '');
    switch (method) {
      case 'chat.startStream': {
        const threadTs = text(args.thread_ts);
        if (channel.length === 0 || threadTs === undefined) {
          return { ok: false, error: 'invalid_arguments' };
        }
        const refused = Object.hasOwn(this.#streamRefusals, channel)
          ? this.#streamRefusals[channel]
          : undefined;
        if (refused !== undefined) return { ok: false, error: refused };
        const user = text(args.recipient_user_id);
        const team = text(args.recipient_team_id);
        if (!channel.startsWith('D') && user === undefined) {
          return { ok: false, error: 'missing_recipient_user_id' };
        }
        if (!channel.startsWith('D') && team === undefined) {
          return { ok: false, error: 'missing_recipient_team_id' };
        }
        const ts = nextTs();
        this.#messages.set(`${channel}:${ts}`, {
          channel,
          ts,
          threadTs,
          text: typeof args.markdown_text === 'string' ? args.markdown_text : '',
          stream: 'open',
          recipient: { ...(user ? { user } : {}), ...(team ? { team } : {}) },
          edits: 0,
        });
        return { ok: true, channel, ts };
      }
      case 'chat.appendStream':
      case 'chat.stopStream': {
        const message = this.get(channel, String(args.ts ?? ''));
        if (message === undefined || message.stream === undefined) {
          return { ok: false, error: 'message_not_found' };
        }
        if (message.stream === 'stopped') {
          const byUser = message.stoppedBy === 'user' && method === 'chat.appendStream';
          return { ok: false, error: byUser ? 'stopped_by_user' : STREAM_STATE_ERROR };
        }
        const added = typeof args.markdown_text === 'string' ? args.markdown_text : '';
        if (method === 'chat.appendStream' && added.length === 0) {
          return { ok: false, error: 'markdown_text_or_chunks_required' };
        }
        message.text += added;
        if (method === 'chat.appendStream') message.edits += 1;
        else {
          message.stream = 'stopped';
          message.stoppedBy = 'app';
        }
        return {
          ok: true,
          channel,
          ts: message.ts,
          ...(method === 'chat.stopStream'
            ? { message: { type: 'message', ts: message.ts, text: message.text } }
            : {}),
        };
      }
      case 'assistant.threads.setStatus':
      case 'assistant.threads.setSuggestedPrompts':
      case 'assistant.threads.setTitle': {
        const channelId = text(args.channel_id);
        const threadTs = text(args.thread_ts);
        if (channelId === undefined || threadTs === undefined) {
          return { ok: false, error: 'invalid_arguments' };
        }
        this.assistant.push({
          method: method.slice('assistant.threads.'.length) as FakeAssistantCall['method'],
          channel: channelId,
          threadTs,
          args,
        });
        return { ok: true };
      }
      default:
        return undefined;
    }
  }
}
