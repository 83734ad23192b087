import type { REST } from '@discordjs/rest';
import type { HandlerContext, HistoryMessage, PostedMessage, RtEvent } from '@rt/core';
import type { APIMessage } from 'discord-api-types/v10';
import type {
  CallOptions,
  DiscordOutbound,
  FollowUpOptions,
  ThreadOptions,
} from './discord-outbound.js';
import type { DiscordMessage } from './message-body.js';

/**
 * Discord's own calls for one handler run, bound to its event and its signal (`discord.for(ctx)`):
 * the escape hatch from the neutral `ctx` actions, typed, without a cast. Each call may pass its
 * own `signal` instead.
 */
export interface DiscordPlatform {
  readonly event: RtEvent;
  /** The `@discordjs/rest` client (bot token set) for any other route; pass the signal yourself. */
  readonly rest: REST;
  /** The handler's signal, for `rest` calls. */
  readonly signal: AbortSignal;
  followUp(message: DiscordMessage, options?: FollowUpOptions): Promise<APIMessage>;
  editOriginal(message: DiscordMessage, options?: CallOptions): Promise<APIMessage>;
  deleteOriginal(options?: CallOptions): Promise<void>;
  send(channel: string, message: DiscordMessage, options?: CallOptions): Promise<PostedMessage>;
  replyTo(
    channel: string,
    messageId: string,
    message: DiscordMessage,
    options?: CallOptions,
  ): Promise<PostedMessage>;
  startThread(channel: string, name: string, options?: ThreadOptions): Promise<string>;
  readHistory(options?: { limit?: number; signal?: AbortSignal }): Promise<HistoryMessage[]>;
}

/** The platform object of `ctx`, checked to come from adapter `adapter`. */
export function discordPlatformFor(
  adapter: string,
  rest: REST,
  outbound: DiscordOutbound,
  ctx: HandlerContext,
): DiscordPlatform {
  const { event } = ctx;
  if (event.adapter !== adapter) {
    throw new TypeError(
      `discord adapter "${adapter}".for(ctx): the event came from adapter "${event.adapter}"`,
    );
  }
  const bound = <O extends { signal?: AbortSignal }>(options: O | undefined): O =>
    ({ ...options, signal: options?.signal ?? ctx.signal }) as O;
  return {
    event,
    rest,
    get signal() {
      return ctx.signal;
    },
    followUp: (message, options) => outbound.followUp(event, message, bound(options)),
    editOriginal: (message, options) => outbound.editOriginal(event, message, bound(options)),
    deleteOriginal: (options) => outbound.deleteOriginal(event, bound(options)),
    send: (channel, message, options) => outbound.send(channel, message, bound(options)),
    replyTo: (channel, messageId, message, options) =>
      outbound.replyTo(channel, messageId, message, bound(options)),
    startThread: (channel, name, options) => outbound.startThread(channel, name, bound(options)),
    readHistory: (options) => outbound.readHistory(event, bound(options)),
  };
}
