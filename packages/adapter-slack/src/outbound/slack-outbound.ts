import type { HistoryMessage, OutboundMessage, PostedMessage, RtEvent } from '@rt/core';
import { type ViewsOpenArguments, WebClient, type WebClientOptions } from '@slack/web-api';
import { SlackTargetError } from '../errors.js';
import { installationOf, type SlackInstallation } from '../normalize/installation.js';
import type { ResolvedSlackOptions } from '../options.js';
import { responseUrlOf } from '../respond/refusal.js';
import { WebClientCache } from './client-cache.js';
import { postJson } from './direct-call.js';
import { messageRefOf, type SlackMessageRef, triggerIdOf } from './event-refs.js';
import { readThread } from './read-history.js';
import { resolveToken } from './token.js';

/** A view definition (modal), as `views.open`/`push`/`update` take it. */
export type SlackViewDefinition = ViewsOpenArguments['view'];

/** A message for Slack: `text` plus any `chat.postMessage` fields (`blocks`, ...) in `extra`. */
export type SlackMessage = string | OutboundMessage;

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
 * `DEFAULT_WEB_CLIENT_OPTIONS`), with a private copy of its `retryConfig`, pointed at `apiUrl`.
 */
export function webClientOptionsOf(options: ResolvedSlackOptions): WebClientOptions {
  const { retryConfig } = options.webClientOptions;
  return {
    ...options.webClientOptions,
    ...(retryConfig !== undefined ? { retryConfig: { ...retryConfig } } : {}),
    slackApiUrl: options.apiUrl,
  };
}

/**
 * Outbound Slack calls for handlers. Every method picks the token of the event's installation
 * (`botToken` or `tokenResolver`) and a cached `WebClient` pointed at `apiUrl`. Web API failures
 * reject with `@slack/web-api`'s coded errors; missing targets with `SlackTargetError`.
 */
export class SlackOutbound {
  readonly #options: ResolvedSlackOptions;
  readonly #clients: WebClientCache;

  constructor(options: ResolvedSlackOptions) {
    this.#options = options;
    this.#clients = new WebClientCache(
      options.clientCacheSize,
      (token) => new WebClient(token, webClientOptionsOf(options)),
    );
  }

  /** The `WebClient` of an installation (or of an event's installation), for any other method. */
  async client(target: RtEvent | SlackInstallation): Promise<WebClient> {
    const installation = 'adapter' in target ? installationOf(target) : target;
    return this.#clients.get(await resolveToken(this.#options.tokenResolver, installation));
  }

  /**
   * Posts in a channel (the event's by default), in a thread when `threadTs` is given. Resolves
   * where the message landed.
   */
  async post(
    event: RtEvent,
    message: SlackMessage,
    options: { channel?: string; threadTs?: string } = {},
  ): Promise<PostedMessage> {
    const client = await this.client(event);
    const result = await client.chat.postMessage({
      ...fieldsOf(message),
      channel: where(event, options.channel),
      ...(options.threadTs !== undefined ? { thread_ts: options.threadTs } : {}),
    } as Parameters<WebClient['chat']['postMessage']>[0]);
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
  reply(event: RtEvent, message: SlackMessage): Promise<PostedMessage> {
    return this.post(event, message, event.thread !== undefined ? { threadTs: event.thread } : {});
  }

  /** Edits a message the bot posted (`chat.update`). */
  async update(event: RtEvent, target: SlackMessageRef, message: SlackMessage): Promise<void> {
    const client = await this.client(event);
    await client.chat.update({
      ...fieldsOf(message),
      channel: target.channel,
      ts: target.ts,
    } as Parameters<WebClient['chat']['update']>[0]);
  }

  /** Adds reaction `name` (no colons) to `target`, by default the message the event is about. */
  async react(event: RtEvent, name: string, target?: SlackMessageRef): Promise<void> {
    const ref = target ?? messageRefOf(event);
    if (ref === undefined) throw new SlackTargetError(`event ${event.shape} names no message`);
    const client = await this.client(event);
    await client.reactions.add({ channel: ref.channel, timestamp: ref.ts, name });
  }

  /**
   * Posts a message only `user` (default: the event's user) sees, in the event's channel (or
   * `channel`), in the event's thread when it has one.
   */
  async postEphemeral(
    event: RtEvent,
    message: SlackMessage,
    options: { channel?: string; user?: string } = {},
  ): Promise<void> {
    const user = options.user ?? event.user;
    if (user === undefined) throw new SlackTargetError(`event ${event.shape} names no user`);
    const client = await this.client(event);
    await client.chat.postEphemeral({
      ...fieldsOf(message),
      channel: where(event, options.channel),
      user,
      ...(event.thread !== undefined && options.channel === undefined
        ? { thread_ts: event.thread }
        : {}),
    } as Parameters<WebClient['chat']['postEphemeral']>[0]);
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
  async openView(event: RtEvent, view: SlackViewDefinition): Promise<string | undefined> {
    const trigger = triggerIdOf(event);
    if (trigger === undefined) throw new SlackTargetError(`event ${event.shape} has no trigger_id`);
    const client = await this.client(event);
    const result = await client.views.open({ trigger_id: trigger, view });
    return result.view?.id;
  }

  /** Pushes a modal onto the stack of the event's modal with its `trigger_id`. */
  async pushView(event: RtEvent, view: SlackViewDefinition): Promise<string | undefined> {
    const trigger = triggerIdOf(event);
    if (trigger === undefined) throw new SlackTargetError(`event ${event.shape} has no trigger_id`);
    const client = await this.client(event);
    const result = await client.views.push({ trigger_id: trigger, view });
    return result.view?.id;
  }

  /**
   * Replaces a view: `viewId` or the event's own view. Pass `hash` to refuse a stale update (Slack
   * answers `hash_conflict`).
   */
  async updateView(
    event: RtEvent,
    view: SlackViewDefinition,
    options: { viewId?: string; hash?: string } = {},
  ): Promise<void> {
    const own = (event.payload as { view?: { id?: unknown } }).view?.id;
    const viewId = options.viewId ?? (typeof own === 'string' ? own : undefined);
    if (viewId === undefined) throw new SlackTargetError(`event ${event.shape} names no view`);
    const client = await this.client(event);
    await client.views.update({
      view_id: viewId,
      view,
      ...(options.hash !== undefined ? { hash: options.hash } : {}),
    });
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
    const client = await this.client(event);
    return readThread(
      client,
      { channel: event.channel, thread: event.thread },
      limit,
      options.signal,
    );
  }
}
