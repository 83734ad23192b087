import type { HandlerContext, HistoryMessage, PostedMessage, RtEvent } from '@rt/core';
import type { WebClient } from '@slack/web-api';
import type { SlackMessageRef } from './event-refs.js';
import type {
  RespondOptions,
  SlackMessage,
  SlackOutbound,
  SlackViewDefinition,
} from './slack-outbound.js';

/**
 * Slack's own calls for one handler run, bound to its event and its signal (`slack.for(ctx)`):
 * the escape hatch from the neutral `ctx` actions, typed, without a cast. Each call may pass its
 * own `signal` instead.
 */
export interface SlackPlatform {
  readonly event: RtEvent;
  /** Any Web API method, with the installation's token and the handler's signal. */
  api<T>(
    run: (client: WebClient, args: <A extends object>(args: A) => A) => Promise<T>,
  ): Promise<T>;
  /** The `WebClient` of the event's installation (its calls are not bound to a signal). */
  client(): Promise<WebClient>;
  post(
    message: SlackMessage,
    options?: { channel?: string; threadTs?: string; signal?: AbortSignal },
  ): Promise<PostedMessage>;
  update(
    target: SlackMessageRef,
    message: SlackMessage,
    options?: { signal?: AbortSignal },
  ): Promise<void>;
  respond(message: SlackMessage, options?: RespondOptions): Promise<void>;
  openView(
    view: SlackViewDefinition,
    options?: { signal?: AbortSignal },
  ): Promise<string | undefined>;
  pushView(
    view: SlackViewDefinition,
    options?: { signal?: AbortSignal },
  ): Promise<string | undefined>;
  updateView(
    view: SlackViewDefinition,
    options?: { viewId?: string; hash?: string; signal?: AbortSignal },
  ): Promise<void>;
  readHistory(options?: { limit?: number; signal?: AbortSignal }): Promise<HistoryMessage[]>;
}

/** The platform object of `ctx` on `outbound`, checked to come from adapter `adapter`. */
export function slackPlatformFor(
  adapter: string,
  outbound: SlackOutbound,
  ctx: HandlerContext,
): SlackPlatform {
  const { event } = ctx;
  if (event.adapter !== adapter) {
    throw new TypeError(
      `slack adapter "${adapter}".for(ctx): the event came from adapter "${event.adapter}"`,
    );
  }
  const bound = <O extends { signal?: AbortSignal }>(options: O | undefined): O =>
    ({ ...options, signal: options?.signal ?? ctx.signal }) as O;
  return {
    event,
    api: (run) => outbound.api(event, ctx.signal, run),
    client: () => outbound.client(event, ctx.signal),
    post: (message, options) => outbound.post(event, message, bound(options)),
    update: (target, message, options) => outbound.update(event, target, message, bound(options)),
    respond: (message, options) => outbound.respond(event, message, bound(options)),
    openView: (view, options) => outbound.openView(event, view, bound(options)),
    pushView: (view, options) => outbound.pushView(event, view, bound(options)),
    updateView: (view, options) => outbound.updateView(event, view, bound(options)),
    readHistory: (options) => outbound.readHistory(event, bound(options)),
  };
}
