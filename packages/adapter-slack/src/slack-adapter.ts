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
import type { FetchHandler, NodeListener, RuntimeHandle } from '@rt/core/adapter';
import {
  AdapterLifecycle,
  AttachGuard,
  createFetchHandler,
  createNodeListener,
  emojiName,
  noticeEmitter,
  PendingSet,
  streamReplyWith,
} from '@rt/core/adapter';
import type { WebClient } from '@slack/web-api';
import {
  type SlackSuggestedPrompt,
  setAssistantStatus,
  setAssistantSuggestedPrompts,
  setAssistantTitle,
} from './assistant/assistant-calls.js';
import { slackEndpoint } from './http/slack-endpoint.js';
import type { SlackCoreDeps } from './inbound/deps.js';
import type { SlackInstallation } from './normalize/installation.js';
import type { SlackNoticeName } from './notices.js';
import {
  type ResolvedSlackOptions,
  resolveSlackOptions,
  type SlackAdapterOptions,
} from './options.js';
import { SlackActions } from './outbound/actions.js';
import type { SlackMessageRef } from './outbound/event-refs.js';
import { type SlackPlatform, slackPlatformFor } from './outbound/platform.js';
import {
  type CallOptions,
  type RespondOptions,
  type SlackMessage,
  SlackOutbound,
  type SlackViewDefinition,
} from './outbound/slack-outbound.js';
import { resolveSlackStreamOptions } from './outbound/stream-options.js';
import { SlackStreamWriter } from './outbound/stream-writer.js';
import { createSlackFollowUps, type SlackFollowUps } from './respond/follow-up.js';
import type { SlackShape } from './shapes.js';
import { SocketModeTransport } from './socket-mode/socket-mode-transport.js';

/**
 * Slack: Events API, slash commands and interactivity behind one HTTP flow (the kit's, served as
 * the native `nodeListener` and the web-standard `handler`), on a transport-neutral core (`inbound/`) that a Socket Mode transport shares, with shape-aware
 * answers when the runtime refuses a delivery, outbound calls for handlers and a History Reader.
 * Create it with `createSlackAdapter`.
 */
export class SlackAdapter implements Adapter, HistoryReader, StreamReplier {
  readonly name: string;
  /** Slack conversations serialise per thread by default. */
  readonly defaultLockScope: LockScope = 'thread';
  readonly #options: ResolvedSlackOptions;
  readonly #outbound: SlackOutbound;
  /** The neutral conversation actions behind `ctx.reply`, `ctx.post`, ... (docs/messages.md). */
  readonly actions: SlackActions;
  readonly #followUps: SlackFollowUps;
  readonly #core: SlackCoreDeps;
  readonly #runtime: AttachGuard;
  readonly #lifecycle: AdapterLifecycle;
  #handler: FetchHandler | undefined;
  readonly #stream: ReturnType<typeof resolveSlackStreamOptions>;
  #nodeListener: NodeListener | undefined;

  constructor(options: SlackAdapterOptions) {
    this.#options = resolveSlackOptions(options);
    this.name = this.#options.name;
    this.#runtime = new AttachGuard(`slack adapter "${this.name}"`);
    this.#outbound = new SlackOutbound(this.#options);
    this.actions = new SlackActions(this.name, this.#outbound);
    const notice = noticeEmitter<SlackNoticeName>(this.name, () => this.#runtime.current);
    this.#stream = resolveSlackStreamOptions(options.stream);
    this.#followUps = createSlackFollowUps(this.#options, ({ event, followUp }, error) =>
      notice(
        'busy_signal_failed',
        { shape: event.shape, eventId: event.id, via: followUp.kind },
        error,
      ),
    );
    const answering = new PendingSet();
    this.#core = {
      options: this.#options,
      runtime: () => this.#runtime.current,
      followUps: this.#followUps,
      answering,
      notice,
    };
    const socketMode =
      this.#options.socketMode === undefined
        ? undefined
        : new SocketModeTransport(this.#core, this.#options.socketMode);
    this.#lifecycle = new AdapterLifecycle({
      answering,
      followUps: this.#followUps,
      transports: [socketMode],
    });
  }

  /**
   * The web-standard request handler: mount it at the Request URL of the Events API, slash
   * commands and interactivity (one URL serves all three). On Node prefer `nodeListener`.
   * Answers 503 until the adapter is attached to a runtime. Never rejects. Reading it throws
   * `TypeError` when the adapter was created without `signingSecret` (required over HTTP).
   */
  get handler(): FetchHandler {
    this.#requireSigningSecret('handler');
    this.#handler ??= createFetchHandler(slackEndpoint(this.#core));
    return this.#handler;
  }

  /**
   * The native `node:http` listener: `http.createServer(adapter.nodeListener)` (or Express,
   * Connect, Fastify's raw mode). The same answers, in the same order, as `handler`, without web
   * `Request`/`Response` objects or streams: the body is read into one Buffer up to
   * `bodyLimitBytes` and the acknowledgement is written straight to the `ServerResponse`, the
   * fastest way to serve Slack on Node (see docs/benchmarks.md). Never throws. Reading it throws
   * `TypeError` when the adapter was created without `signingSecret`.
   */
  get nodeListener(): NodeListener {
    this.#requireSigningSecret('nodeListener');
    this.#nodeListener ??= createNodeListener(slackEndpoint(this.#core));
    return this.#nodeListener;
  }

  #requireSigningSecret(what: string): void {
    if (this.#options.signingSecrets.length === 0) {
      throw new TypeError(
        `slack adapter "${this.name}": signingSecret is required to use the HTTP ${what}`,
      );
    }
  }

  /** Registers the runtime. A second call with another runtime throws (one runtime per adapter). */
  attach(runtime: RuntimeHandle): void {
    this.#runtime.attach(runtime);
  }

  /** `view_submission` and `block_suggestion` are sync by default (their ack carries the answer). */
  dispatchModeFor(event: RtEvent): DispatchMode | undefined {
    return this.#options.dispatchModes[event.shape as SlackShape];
  }

  /**
   * Called by `runtime.start()`. With `socketMode` set, opens the Socket Mode connection and
   * resolves once Slack said `hello` (failed attempts are retried with backoff meanwhile); rejects
   * with `SlackSocketModeError` when Slack refuses the app token, and with `signal.reason` when
   * the runtime shuts down first. Without `socketMode` there is nothing to open. Idempotent.
   */
  start(signal?: AbortSignal): Promise<void> {
    return this.#lifecycle.start(signal);
  }

  /**
   * Called by `runtime.shutdown()` once admission has closed (idempotent; the HTTP server itself
   * is the caller's to close). With `socketMode` set, it first runs the Socket Mode shutdown
   * (ADR 0007): every ack the socket owes (the busy acks of envelopes refused meanwhile included)
   * goes out, events read after admission closed stay unacked so Slack redelivers them to a live
   * connection, reconnecting stops, and the socket closes, awaited. Then it resolves when the acknowledgements being built from a dispatch when
   * it began (each bounded by `ackDeadlineMs`) are out, and the busy-signal follow-ups in flight
   * then (each bounded by `busySignalTimeoutMs`) have settled: it converges while requests keep
   * arriving. Rejects with `signal.reason` when `signal` (the runtime's step deadline) aborts
   * first. A late busy signal for a deferred delivery dropped after this resolved is covered by
   * `drain()`.
   */
  stop(signal?: AbortSignal): Promise<void> {
    return this.#lifecycle.stop(signal);
  }

  /**
   * Called by `runtime.shutdown()` after every admitted delivery has its outcome: lets the late
   * busy signals those outcomes started (they start on the outcome's own tick) begin, then waits
   * like `drainFollowUps()`. Converges; rejects with `signal.reason` when `signal` aborts first.
   */
  drain(signal?: AbortSignal): Promise<void> {
    return this.#lifecycle.drain(signal);
  }

  /**
   * Resolves once the acknowledgements being built when it was called are out and then every
   * busy-signal follow-up started by that moment has settled (theirs included). Work that arrives
   * later is not waited for, so it converges under continuous traffic; each piece is
   * time-bounded. Rejects with `signal.reason` when `signal` aborts first.
   */
  drainFollowUps(signal?: AbortSignal): Promise<void> {
    return this.#lifecycle.settle(signal);
  }

  /**
   * Posts `message` in the event's thread (`chat.postMessage` with `thread_ts`). Like every
   * outbound method it takes `signal`: at the abort it rejects with `signal.reason` and the HTTP
   * request is cancelled.
   */
  reply(
    event: RtEvent,
    message: OutboundMessage | string,
    options?: CallOptions,
  ): Promise<PostedMessage> {
    return this.#outbound.reply(event, message, options);
  }

  /**
   * Posts a Slack message in a channel (default: the event's), in `thread` when given (a thread
   * ts): the same signature as the Discord adapter's `post`. `threadTs` is the old name of `thread`.
   */
  post(
    event: RtEvent,
    message: SlackMessage,
    options: { channel?: string; thread?: string; threadTs?: string } & CallOptions = {},
  ): Promise<PostedMessage> {
    const { thread, threadTs, ...rest } = options;
    const ts = thread ?? threadTs;
    return this.#outbound.post(event, message, {
      ...rest,
      ...(ts !== undefined ? { threadTs: ts } : {}),
    });
  }

  /** Edits a message (`chat.update`). */
  update(
    event: RtEvent,
    target: SlackMessageRef,
    message: SlackMessage,
    options?: CallOptions,
  ): Promise<void> {
    return this.#outbound.update(event, target, message, options);
  }

  /**
   * Adds a reaction (`eyes`, `:eyes:` or a common Unicode emoji) to `target` (a posted message
   * `{ channel, id }`, or `{ channel, ts }`), by default the message the event is about: the same
   * signature as the Discord adapter's `react`.
   */
  react(
    event: RtEvent,
    emoji: string,
    target?: PostedMessage | SlackMessageRef,
    options?: CallOptions,
  ): Promise<void> {
    const ref =
      target === undefined || 'ts' in target ? target : { channel: target.channel, ts: target.id };
    const name = emojiName(emoji) ?? emoji;
    return this.#outbound.react(event, name, ref, options);
  }

  /** Posts a message only one user sees (default: the event's user, in the event's channel). */
  postEphemeral(
    event: RtEvent,
    message: SlackMessage,
    options?: { channel?: string; user?: string } & CallOptions,
  ): Promise<void> {
    return this.#outbound.postEphemeral(event, message, options);
  }

  /** Replies through the interaction's `response_url` (ephemeral by default). */
  respond(event: RtEvent, message: SlackMessage, options?: RespondOptions): Promise<void> {
    return this.#outbound.respond(event, message, options);
  }

  /** Opens a modal with the event's `trigger_id`; resolves the new view's id. */
  openView(
    event: RtEvent,
    view: SlackViewDefinition,
    options?: CallOptions,
  ): Promise<string | undefined> {
    return this.#outbound.openView(event, view, options);
  }

  /** Pushes a modal with the event's `trigger_id`; resolves the new view's id. */
  pushView(
    event: RtEvent,
    view: SlackViewDefinition,
    options?: CallOptions,
  ): Promise<string | undefined> {
    return this.#outbound.pushView(event, view, options);
  }

  /** Replaces a view (default: the event's own view). */
  updateView(
    event: RtEvent,
    view: SlackViewDefinition,
    options?: { viewId?: string; hash?: string } & CallOptions,
  ): Promise<void> {
    return this.#outbound.updateView(event, view, options);
  }

  /**
   * Slack's own calls for a handler run, bound to `ctx.event` and `ctx.signal`, typed without a
   * cast. Throws `TypeError` when `ctx` is another adapter's.
   */
  for(ctx: HandlerContext): SlackPlatform {
    return slackPlatformFor(this.name, this.#outbound, ctx);
  }

  /** The `WebClient` of an event's (or an installation's) token, for any other Web API method. */
  client(target: RtEvent | SlackInstallation): Promise<WebClient> {
    return this.#outbound.client(target);
  }

  /**
   * `ctx.stream`'s Slack side: a reply in the event's thread that grows as `source` yields,
   * through Slack's native streaming where the conversation allows it, else `chat.update`
   * (options `stream`; the `stream_finished` observation names the path). See `ctx.stream`.
   */
  async streamReply(
    event: RtEvent,
    source: TextSource,
    options: StreamOptions & { readonly signal: AbortSignal },
  ): Promise<PostedMessage> {
    const writer = new SlackStreamWriter(
      (target, signal) => this.#outbound.client(target, signal),
      event,
      this.#stream,
    );
    return streamReplyWith(
      { runtime: this.#runtime.current, adapter: this.name, event, writer },
      source,
      options,
    );
  }

  /**
   * Sets the status of the handler's assistant thread (`assistant.threads.setStatus`; `''`
   * clears it), bound to `ctx.signal`. `SlackTargetError` outside an assistant thread.
   */
  setStatus(ctx: Pick<HandlerContext, 'event' | 'signal'>, status: string): Promise<void> {
    return setAssistantStatus(this.#clientFor, ctx.event, status, ctx.signal);
  }

  /** Shows 1 to 4 suggested prompts in the handler's assistant thread, bound to `ctx.signal`. */
  setSuggestedPrompts(
    ctx: Pick<HandlerContext, 'event' | 'signal'>,
    prompts: readonly SlackSuggestedPrompt[],
    options: { readonly title?: string } = {},
  ): Promise<void> {
    return setAssistantSuggestedPrompts(this.#clientFor, ctx.event, prompts, {
      ...options,
      signal: ctx.signal,
    });
  }

  /** Titles the handler's assistant thread, bound to `ctx.signal`. */
  setTitle(ctx: Pick<HandlerContext, 'event' | 'signal'>, title: string): Promise<void> {
    return setAssistantTitle(this.#clientFor, ctx.event, title, ctx.signal);
  }

  readonly #clientFor = (event: RtEvent, signal?: AbortSignal) =>
    this.#outbound.client(event, signal);

  /** The event's thread via `conversations.replies`, oldest first. */
  readHistory(
    event: RtEvent,
    options?: { limit?: number; signal?: AbortSignal },
  ): Promise<HistoryMessage[]> {
    return this.#outbound.readHistory(event, options);
  }
}

/**
 * Creates a Slack adapter. Validates options at once: an empty signing secret, a missing token
 * source or a non-positive limit throws `TypeError`/`RangeError` naming the option. Without
 * `signingSecret` the adapter can serve a Socket Mode transport, but not `handler`.
 */
export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  return new SlackAdapter(options);
}
