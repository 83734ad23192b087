import { REST } from '@discordjs/rest';
import type {
  Adapter,
  DispatchMode,
  HandlerContext,
  HistoryMessage,
  HistoryReader,
  LockScope,
  OutboundMessage,
  PostedMessage,
  RtEvent,
  StreamOptions,
  StreamReplier,
  TextSource,
} from '@rt/core';
import type {
  FetchHandler,
  HttpEndpoint,
  NodeListener,
  NoticeEmitter,
  RuntimeHandle,
} from '@rt/core/adapter';
import {
  AdapterLifecycle,
  AttachGuard,
  createFetchHandler,
  createNodeListener,
  FollowUpRunner,
  noticeEmitter,
  PendingSet,
  streamReplyWith,
} from '@rt/core/adapter';
import type { Client } from 'discord.js';
import type { APIMessage } from 'discord-api-types/v10';
import { DiscordTargetError } from './errors.js';
import { DiscordGateway } from './gateway/discord-gateway.js';
import { resolveGatewayOptions } from './gateway/gateway-options.js';
import { discordEndpoint } from './http/discord-endpoint.js';
import type { InboundDeps } from './inbound/inbound-deps.js';
import { messageTargetOf } from './normalize/message-target.js';
import type { DiscordNoticeName } from './notices.js';
import {
  type DiscordAdapterOptions,
  type ResolvedDiscordOptions,
  resolveDiscordOptions,
} from './options.js';
import { DiscordActions } from './outbound/actions.js';
import {
  type CallOptions,
  DiscordOutbound,
  type FollowUpOptions,
  type ThreadOptions,
} from './outbound/discord-outbound.js';
import type { DiscordMessage } from './outbound/message-body.js';
import { type DiscordPlatform, discordPlatformFor } from './outbound/platform.js';
import { ReplyStates } from './outbound/reply-state.js';
import { DiscordStreamWriter, resolveDiscordStreamOptions } from './outbound/stream-writer.js';
import type { ParsedInteraction } from './parse/parse-interaction.js';
import type { LateBusySignal } from './respond/late-refusal.js';
import type { DiscordShape } from './shapes.js';

/**
 * Discord over HTTP interactions: Ed25519 verification, the shape-aware answer table of docs/contract.md §9.2
 * within Discord's 3 s, outbound calls through `@discordjs/rest` and a History Reader. Create it
 * with `createDiscordAdapter`.
 */
export class DiscordAdapter implements Adapter, HistoryReader, StreamReplier {
  readonly name: string;
  /**
   * Thread scope: an interaction in a thread serialises with its thread; elsewhere each
   * interaction is its own conversation (set the runtime's `lockScope: 'channel'` to serialise a
   * whole channel, a thread's parent included).
   */
  readonly defaultLockScope: LockScope = 'thread';
  readonly #endpoint: HttpEndpoint<ParsedInteraction> | undefined;
  readonly #options: ResolvedDiscordOptions;
  readonly #rest: REST;
  readonly #outbound: DiscordOutbound;
  /** The neutral conversation actions behind `ctx.reply`, `ctx.post`, ... (docs/messages.md). */
  readonly actions: DiscordActions;
  readonly #followUps: FollowUpRunner<LateBusySignal>;
  readonly #gateway: DiscordGateway | undefined;
  readonly #runtime: AttachGuard;
  readonly #notice: NoticeEmitter<DiscordNoticeName>;
  readonly #lifecycle: AdapterLifecycle;
  #handler: FetchHandler | undefined;
  #nodeListener: NodeListener | undefined;
  readonly #stream: ReturnType<typeof resolveDiscordStreamOptions>;

  constructor(options: DiscordAdapterOptions) {
    this.#options = resolveDiscordOptions(options);
    this.name = this.#options.name;
    this.#runtime = new AttachGuard(`discord adapter "${this.name}"`);
    this.#notice = noticeEmitter(this.name, () => this.#runtime.current);
    this.#rest = new REST({
      ...this.#options.restOptions,
      api: this.#options.apiUrl,
      version: '10',
    });
    this.#rest.setToken(this.#options.token);
    const replies = new ReplyStates();
    this.#outbound = new DiscordOutbound(this.#rest, replies, this.#options.historyLimit);
    this.actions = new DiscordActions(this.name, this.#rest, this.#outbound, replies);
    this.#stream = resolveDiscordStreamOptions(options.stream);
    this.#followUps = new FollowUpRunner<LateBusySignal>({
      budgetMs: this.#options.busySignalTimeoutMs,
      budgetMessage: `busy signal ran past busySignalTimeoutMs (${this.#options.busySignalTimeoutMs} ms)`,
      send: async (signal, budget) => {
        if (signal.via === 'edit_original') {
          await this.#outbound.editOriginal(signal.event, signal.body, { signal: budget });
        } else {
          await this.#outbound.followUp(signal.event, signal.body, {
            signal: budget,
            ephemeral: true,
          });
        }
      },
      onFailure: (signal, error) =>
        this.#notice(
          'busy_signal_failed',
          { shape: signal.event.shape, eventId: signal.event.id, via: signal.via },
          error,
        ),
    });
    const answering = new PendingSet();
    const deps: InboundDeps = {
      options: this.#options,
      runtime: () => this.#runtime.current,
      followUps: this.#followUps,
      answering,
      replies,
      notice: this.#notice,
    };
    this.#endpoint =
      this.#options.publicKey === undefined
        ? undefined
        : discordEndpoint(deps, this.#options.publicKey);
    const gateway = options.gateway ?? false;
    this.#gateway =
      gateway === false
        ? undefined
        : new DiscordGateway({
            inbound: deps,
            gateway: resolveGatewayOptions(gateway),
            rest: this.#rest,
            outbound: this.#outbound,
          });
    this.#lifecycle = new AdapterLifecycle({
      answering,
      followUps: this.#followUps,
      transports: [this.#gateway],
    });
  }

  /**
   * The web-standard interactions handler (Hono, Next, workers): mount it at the Interactions
   * Endpoint URL. On Node prefer `nodeListener`. Answers 503 until the adapter is attached to a
   * runtime (PING excepted). Never rejects. Reading it throws `TypeError` when the adapter was
   * created without a `publicKey` (a gateway-only bot): requests could not be verified.
   */
  get handler(): FetchHandler {
    this.#handler ??= createFetchHandler(this.#requireEndpoint('handler'));
    return this.#handler;
  }

  /**
   * The native `node:http` interactions listener: `http.createServer(adapter.nodeListener)` (or
   * Express, Connect, Fastify's raw mode). The same answers, in the same order, as `handler`,
   * without web `Request`/`Response` objects or streams: the body is read into one Buffer up to
   * `bodyLimitBytes` and the callback is written straight to the `ServerResponse`, the fastest way
   * to serve Discord on Node (see docs/benchmarks.md). Never throws. Reading it throws
   * `TypeError` when the adapter was created without a `publicKey`.
   */
  get nodeListener(): NodeListener {
    this.#nodeListener ??= createNodeListener(this.#requireEndpoint('nodeListener'));
    return this.#nodeListener;
  }

  #requireEndpoint(what: string): HttpEndpoint<ParsedInteraction> {
    if (this.#endpoint === undefined) {
      throw new TypeError(
        `discord adapter "${this.name}": publicKey is required to use the HTTP interactions ${what}`,
      );
    }
    return this.#endpoint;
  }

  /** Registers the runtime. A second call with another runtime throws (one runtime per adapter). */
  attach(runtime: RuntimeHandle): void {
    this.#runtime.attach(runtime);
  }

  /**
   * `autocomplete` is sync by default (its choices are the answer), and so is every command named in
   * `syncCommands`; the rest follows `dispatchModes`.
   */
  dispatchModeFor(event: RtEvent): DispatchMode | undefined {
    const { command } = event;
    if (
      event.shape === 'application_command' &&
      command !== undefined &&
      this.#options.syncCommands.has(command)
    ) {
      return 'sync';
    }
    return this.#options.dispatchModes[event.shape as DiscordShape];
  }

  /**
   * Called by `runtime.shutdown()` once admission has closed (the HTTP server itself is the
   * caller's to close). Resolves when the answers being built when it was called (each bounded by
   * `ackDeadlineMs`) and the late busy signals in flight then (each bounded by
   * `busySignalTimeoutMs`) have settled; what arrives meanwhile is not waited for, so it converges.
   * Rejects with `signal.reason` when `signal` aborts first. Idempotent. With the gateway, it also
   * waits for the gateway dispatches in flight, and keeps the connection open so that messages
   * arriving meanwhile are refused visibly; `drain()` closes it.
   */
  stop(signal?: AbortSignal): Promise<void> {
    return this.#lifecycle.stop(signal);
  }

  /**
   * Called by `runtime.shutdown()` after every admitted delivery has its outcome: lets the late
   * busy signals those outcomes started begin (they start on the outcome's own tick), then waits
   * for them like `stop()`. With the gateway, it first closes it (`client.destroy()`: close frame
   * 1000, no reconnect).
   */
  drain(signal?: AbortSignal): Promise<void> {
    return this.#lifecycle.drain(signal);
  }

  /**
   * Called by `runtime.start()`: with `gateway` configured, connects the discord.js Client and
   * resolves once it is ready (rejects with `DiscordGatewayError`, or `signal.reason` when the
   * runtime shuts down first). HTTP only: resolves at once.
   */
  start(signal: AbortSignal): Promise<void> {
    return this.#lifecycle.start(signal);
  }

  /** The gateway's discord.js Client once started (`undefined` for HTTP only, or before `start`). */
  get gatewayClient(): Client | undefined {
    return this.#gateway?.client;
  }

  /**
   * Replies to the interaction: the first reply after a type 5 edits the "thinking…" message
   * (`@original`), later ones are follow-ups (ephemeral as decided for the interaction), as are
   * replies to components. Waits for the answer to be handed over first. Rejects with
   * `DiscordTargetError` from a sync handler (return the answer instead). For a gateway message
   * (or reaction): a reply to that message in its channel or thread (`message_reference`).
   */
  reply(
    event: RtEvent,
    message: OutboundMessage | DiscordMessage,
    options?: CallOptions,
  ): Promise<PostedMessage> {
    const target = messageTargetOf(event);
    if (target !== undefined) {
      return this.#outbound.replyTo(target.channel, target.messageId, message, options);
    }
    return this.#outbound.reply(event, message, options);
  }

  /** A follow-up message for the interaction (`POST /webhooks/{app}/{token}`), valid 15 minutes. */
  followUp(
    event: RtEvent,
    message: DiscordMessage,
    options?: FollowUpOptions,
  ): Promise<APIMessage> {
    return this.#outbound.followUp(event, message, options);
  }

  /** Edits the interaction's original response (`PATCH .../messages/@original`). */
  editOriginal(
    event: RtEvent,
    message: DiscordMessage,
    options?: CallOptions,
  ): Promise<APIMessage> {
    return this.#outbound.editOriginal(event, message, options);
  }

  /** Deletes the interaction's original response. */
  deleteOriginal(event: RtEvent, options?: CallOptions): Promise<void> {
    return this.#outbound.deleteOriginal(event, options);
  }

  /** Posts a message in a channel or thread (bot token). */
  send(channel: string, message: DiscordMessage, options?: CallOptions): Promise<PostedMessage> {
    return this.#outbound.send(channel, message, options);
  }

  /** Posts a reply to a message (`message_reference`; a reply is not a thread). */
  replyTo(
    channel: string,
    messageId: string,
    message: DiscordMessage,
    options?: CallOptions,
  ): Promise<PostedMessage> {
    return this.#outbound.replyTo(channel, messageId, message, options);
  }

  /** Starts a thread (from a message when `messageId` is given); resolves its channel id. */
  startThread(channel: string, name: string, options?: ThreadOptions): Promise<string> {
    return this.#outbound.startThread(channel, name, options);
  }

  /**
   * Adds the bot's reaction (`👍`, a common `:name:`, or a custom `name:id`) to `target`, by default
   * the message the event is about (the gateway message, or the message a component was on): the
   * same signature as the Slack adapter's `react`. `UnsupportedActionError` when there is none.
   */
  react(
    event: RtEvent,
    emoji: string,
    target?: PostedMessage,
    options: CallOptions = {},
  ): Promise<void> {
    return this.actions.react(event, emoji, target, {
      signal: options.signal ?? new AbortController().signal,
    });
  }

  /**
   * Posts a Discord message in a channel, default the event's (in `thread` when given: a thread is
   * a channel), with the bot token: the same signature as the Slack adapter's `post`.
   */
  post(
    event: RtEvent,
    message: DiscordMessage,
    options: { channel?: string; thread?: string } & CallOptions = {},
  ): Promise<PostedMessage> {
    const channel = options.thread ?? options.channel ?? event.channel;
    if (channel === undefined) {
      return Promise.reject(new DiscordTargetError(`event ${event.id} has no channel to post in`));
    }
    return this.#outbound.send(channel, message, options);
  }

  /**
   * `ctx.stream`'s Discord side: the reply is posted, then edited as `source` yields (options
   * `stream`), continued in a new message past 2000 characters; for an interaction the type 5
   * `@original` first, then follow-ups. See `ctx.stream`.
   */
  async streamReply(
    event: RtEvent,
    source: TextSource,
    options: StreamOptions & { readonly signal: AbortSignal },
  ): Promise<PostedMessage> {
    const writer = new DiscordStreamWriter(this.#outbound, this.#rest, event, this.#stream);
    return streamReplyWith(
      { runtime: this.#runtime.current, adapter: this.name, event, writer },
      source,
      options,
    );
  }

  /** The latest messages of the event's thread (or channel), oldest first, read from Discord. */
  readHistory(
    event: RtEvent,
    options?: { limit?: number; signal?: AbortSignal },
  ): Promise<HistoryMessage[]> {
    return this.#outbound.readHistory(event, options);
  }

  /**
   * Discord's own calls for a handler run, bound to `ctx.event` and `ctx.signal`, typed without a
   * cast. Throws `TypeError` when `ctx` is another adapter's.
   */
  for(ctx: HandlerContext): DiscordPlatform {
    return discordPlatformFor(this.name, this.#rest, this.#outbound, ctx);
  }

  /** The `@discordjs/rest` client (bot token set, bounded retries), for any other REST route. */
  get rest(): REST {
    return this.#rest;
  }
}

/**
 * Creates a Discord HTTP interactions adapter. Validates options at once: a public key that is not
 * 64 hex characters, a missing application id or token, or a bad limit throws
 * `TypeError`/`RangeError` naming the option.
 */
export function createDiscordAdapter(options: DiscordAdapterOptions): DiscordAdapter {
  return new DiscordAdapter(options);
}
