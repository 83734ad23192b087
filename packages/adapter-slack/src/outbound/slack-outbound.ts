import type { HistoryMessage, OutboundMessage, PostedMessage, RtEvent } from '@rt/core';
import { abortable } from '@rt/core/adapter';
import type { ViewsOpenArguments, WebClient, WebClientOptions } from '@slack/web-api';
import { SlackTargetError } from '../errors.js';
import { installationOf, type SlackInstallation } from '../normalize/installation.js';
import type { ResolvedSlackOptions } from '../options.js';
import { responseUrlOf } from '../respond/refusal.js';
import { WebClientCache } from './client-cache.js';
import { postJson } from './direct-call.js';
import { messageRefOf, type SlackMessageRef, triggerIdOf } from './event-refs.js';
import { readThread } from './read-history.js';
import { SignalWebClient, withSignal } from './signal-web-client.js';
import { resolveToken } from './token.js';

/** A view definition (modal), as `views.open`/`push`/`update` take it. */
export type SlackViewDefinition = ViewsOpenArguments['view'];

/** A message for Slack: `text` plus any `chat.postMessage` fields (`blocks`, ...) in `extra`. */
export type SlackMessage = string | OutboundMessage;

/** Every outbound call accepts a signal that aborts it (the HTTP request included). */
export interface CallOptions {
  /** Aborts the call: it rejects with `signal.reason`, and its request is cancelled. */
  readonly signal?: AbortSignal;
}

/** Options of a `response_url` reply. */
export interface RespondOptions {
  /** `ephemeral` (default: only the invoking user sees it) or `in_channel`. */
  readonly responseType?: 'ephemeral' | 'in_channel';
  /** Replace the message the interaction came from. Default false. */
  readonly replaceOriginal?: boolean;
  /** Aborts the request (rejecting with a `SlackCallError` caused by the reason). */
  readonly signal?: AbortSignal;
}

function fieldsOf(message: SlackMessage): Record<string, unknown> {
  return typeof message === 'string' ? { text: message } : { ...message.extra, text: message.text };
}

function where(event: RtEvent, channel: string | undefined): string {
  const target = channel ?? event.channel;
  if (target === undefined) {
    throw new SlackTargetError(`event ${event.shape} has no channel; pass one explicitly`);
  }
  return target;
}

/**
 * What each `WebClient` is constructed with: `webClientOptions` (already laid over
 * `DEFAULT_WEB_CLIENT_OPTIONS`) pointed at `apiUrl`. The `SignalWebClient` built from it adds the
 * per-call signal to its fetch and a retry guard that never retries an aborted call.
 */
export function webClientOptionsOf(options: ResolvedSlackOptions): WebClientOptions {
  return { ...options.webClientOptions, slackApiUrl: options.apiUrl };
}

/**
 * Outbound Slack calls for handlers. Every method picks the token of the event's installation
 * (`botToken` or `tokenResolver`) and a cached `WebClient` pointed at `apiUrl`. Web API failures
 * reject with `@slack/web-api`'s coded errors; missing targets with `SlackTargetError`. Every
 * method takes `signal` (in its options): at the abort it rejects with `signal.reason` (token
 * resolution included) and the HTTP request is cancelled.
 */
export class SlackOutbound {
  readonly #options: ResolvedSlackOptions;
  readonly #clients: WebClientCache;

  constructor(options: ResolvedSlackOptions) {
    this.#options = options;
    this.#clients = new WebClientCache(
      options.clientCacheSize,
      (token) => new SignalWebClient(token, webClientOptionsOf(options)),
    );
  }

  /** The `WebClient` of an installation (or of an event's installation), for any other method. */
  async client(target: RtEvent | SlackInstallation, signal?: AbortSignal): Promise<WebClient> {
    signal?.throwIfAborted();
    const installation = 'adapter' in target ? installationOf(target) : target;
    const token = resolveToken(this.#options.tokenResolver, installation);
    return this.#clients.get(await (signal === undefined ? token : abortable(token, signal)));
  }

  /** Runs one Web API call with `signal`: rejects with its reason at the abort. */
  async #call<T>(
    event: RtEvent,
    signal: AbortSignal | undefined,
    run: (client: WebClient, args: <A extends object>(args: A) => A) => Promise<T>,
  ): Promise<T> {
    const client = await this.client(event, signal);
    const call = run(client, (args) => withSignal(args, signal));
    return signal === undefined ? call : abortable(call, signal);
  }

  /**
   * Runs any Web API call with the client of the event's installation and `signal` (passed to the
   * request through `args`): rejects with `signal.reason` at the abort, the request cancelled.
   */
  api<T>(
    event: RtEvent,
    signal: AbortSignal | undefined,
    run: (client: WebClient, args: <A extends object>(args: A) => A) => Promise<T>,
  ): Promise<T> {
    return this.#call(event, signal, run);
  }

  /**
   * Posts in a channel (the event's by default), in a thread when `threadTs` is given. Resolves
   * where the message landed.
   */
  async post(
    event: RtEvent,
    message: SlackMessage,
    options: { channel?: string; threadTs?: string } & CallOptions = {},
  ): Promise<PostedMessage> {
    const channel = where(event, options.channel);
    const result = await this.#call(event, options.signal, (client, args) =>
      client.chat.postMessage(
        args({
          ...fieldsOf(message),
          channel,
          ...(options.threadTs !== undefined ? { thread_ts: options.threadTs } : {}),
        }) as Parameters<WebClient['chat']['postMessage']>[0],
      ),
    );
    return {
      channel: result.channel ?? where(event, options.channel),
      id: result.ts ?? '',
      ...(options.threadTs !== undefined ? { thread: options.threadTs } : {}),
    };
  }

  /**
   * Posts in the event's thread: under the message itself for a top-level message, in the
   * channel for events without a thread (slash commands).
   */
  reply(event: RtEvent, message: SlackMessage, options: CallOptions = {}): Promise<PostedMessage> {
    return this.post(event, message, {
      ...(event.thread !== undefined ? { threadTs: event.thread } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    });
  }

  /** Edits a message the bot posted (`chat.update`). */
  async update(
    event: RtEvent,
    target: SlackMessageRef,
    message: SlackMessage,
    options: CallOptions = {},
  ): Promise<void> {
    await this.#call(event, options.signal, (client, args) =>
      client.chat.update(
        args({
          ...fieldsOf(message),
          channel: target.channel,
          ts: target.ts,
        }) as Parameters<WebClient['chat']['update']>[0],
      ),
    );
  }

  /** Adds reaction `name` (no colons) to `target`, by default the message the event is about. */
  async react(
    event: RtEvent,
    name: string,
    target?: SlackMessageRef,
    options: CallOptions = {},
  ): Promise<void> {
    const ref = target ?? messageRefOf(event);
    if (ref === undefined) throw new SlackTargetError(`event ${event.shape} names no message`);
    await this.#call(event, options.signal, (client, args) =>
      client.reactions.add(args({ channel: ref.channel, timestamp: ref.ts, name })),
    );
  }

  /**
   * Posts a message only `user` (default: the event's user) sees, in the event's channel (or
   * `channel`), in the event's thread when it has one.
   */
  async postEphemeral(
    event: RtEvent,
    message: SlackMessage,
    options: { channel?: string; user?: string } & CallOptions = {},
  ): Promise<void> {
    const user = options.user ?? event.user;
    if (user === undefined) throw new SlackTargetError(`event ${event.shape} names no user`);
    const channel = where(event, options.channel);
    await this.#call(event, options.signal, (client, args) =>
      client.chat.postEphemeral(
        args({
          ...fieldsOf(message),
          channel,
          user,
          ...(event.thread !== undefined && options.channel === undefined
            ? { thread_ts: event.thread }
            : {}),
        }) as Parameters<WebClient['chat']['postEphemeral']>[0],
      ),
    );
  }

  /**
   * Replies through the interaction's `response_url` (slash commands, message actions, actions in
   * messages): valid 30 minutes, 5 uses. Ephemeral unless `responseType: 'in_channel'`.
   */
  async respond(
    event: RtEvent,
    message: SlackMessage,
    options: RespondOptions = {},
  ): Promise<void> {
    const url = responseUrlOf(event.payload as Record<string, unknown>);
    if (url === undefined) throw new SlackTargetError(`event ${event.shape} has no response_url`);
    await postJson(this.#options.fetch, {
      url,
      body: {
        ...fieldsOf(message),
        response_type: options.responseType ?? 'ephemeral',
        replace_original: options.replaceOriginal ?? false,
      },
      expectOk: false,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** Opens a modal with the event's `trigger_id` (3 s, single use). Resolves the view id. */
  async openView(
    event: RtEvent,
    view: SlackViewDefinition,
    options: CallOptions = {},
  ): Promise<string | undefined> {
    const trigger = triggerIdOf(event);
    if (trigger === undefined) throw new SlackTargetError(`event ${event.shape} has no trigger_id`);
    const result = await this.#call(event, options.signal, (client, args) =>
      client.views.open(args({ trigger_id: trigger, view })),
    );
    return result.view?.id;
  }

  /** Pushes a modal onto the stack of the event's modal with its `trigger_id`. */
  async pushView(
    event: RtEvent,
    view: SlackViewDefinition,
    options: CallOptions = {},
  ): Promise<string | undefined> {
    const trigger = triggerIdOf(event);
    if (trigger === undefined) throw new SlackTargetError(`event ${event.shape} has no trigger_id`);
    const result = await this.#call(event, options.signal, (client, args) =>
      client.views.push(args({ trigger_id: trigger, view })),
    );
    return result.view?.id;
  }

  /**
   * Replaces a view: `viewId` or the event's own view. Pass `hash` to refuse a stale update (Slack
   * answers `hash_conflict`).
   */
  async updateView(
    event: RtEvent,
    view: SlackViewDefinition,
    options: { viewId?: string; hash?: string } & CallOptions = {},
  ): Promise<void> {
    const own = (event.payload as { view?: { id?: unknown } }).view?.id;
    const viewId = options.viewId ?? (typeof own === 'string' ? own : undefined);
    if (viewId === undefined) throw new SlackTargetError(`event ${event.shape} names no view`);
    await this.#call(event, options.signal, (client, args) =>
      client.views.update(
        args({
          view_id: viewId,
          view,
          ...(options.hash !== undefined ? { hash: options.hash } : {}),
        }),
      ),
    );
  }

  /**
   * The event's thread via `conversations.replies`, oldest first, at most `limit` (default
   * `historyLimit`). Events without a channel and thread have no history: resolves `[]`.
   */
  async readHistory(
    event: RtEvent,
    options: { limit?: number; signal?: AbortSignal } = {},
  ): Promise<HistoryMessage[]> {
    options.signal?.throwIfAborted();
    if (event.channel === undefined || event.thread === undefined) return [];
    const limit = options.limit ?? this.#options.historyLimit;
    if (!Number.isInteger(limit) || limit <= 0) {
      throw new RangeError(`limit must be a positive integer, got ${String(limit)}`);
    }
    const client = await this.client(event, options.signal);
    const reading = readThread(
      client,
      { channel: event.channel, thread: event.thread },
      limit,
      options.signal,
    );
    return options.signal === undefined ? reading : abortable(reading, options.signal);
  }
}
