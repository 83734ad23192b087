import { checkPositiveInteger } from '@rt/core/adapter';
import type { ClientOptions } from 'discord.js';
import { GatewayIntentBits } from 'discord-api-types/v10';

/** Which bot-authored messages are dispatched. */
export type BotMessagePolicy =
  /** None: the bot's own and other bots' (and webhooks') messages are ignored. */
  | 'ignore'
  /** Other bots' and webhooks' messages are dispatched; the bot's own never are. */
  | 'others'
  /** All of them, the bot's own included (a handler that replies to itself loops). */
  | 'all';

/** How a gateway message that admission refused is told so. */
export type MessageBusySignal =
  /** A reply to the message (`message_reference`) with the busy or unavailable text. */
  | 'reply'
  /** The bot's reaction `busyReaction` on the message. */
  | 'reaction';

/**
 * Options of the gateway transport (`DiscordAdapterOptions.gateway`). The gateway runs a long-lived
 * `discord.js` `Client`, loaded only when `runtime.start()` starts it.
 */
export interface DiscordGatewayOptions {
  /**
   * Gateway intents, as a bit field or a list of `GatewayIntentBits`. Default: guilds, guild
   * messages, message content (privileged: enable it in the Developer Portal), direct messages,
   * and guild and DM reactions.
   */
  readonly intents?: number | readonly number[] | undefined;
  /** Which bot-authored messages are dispatched. Default `ignore`. */
  readonly botMessages?: BotMessagePolicy | undefined;
  /** The visible signal for a refused message. Default `reply`. */
  readonly busySignal?: MessageBusySignal | undefined;
  /** The emoji of `busySignal: 'reaction'` (unicode, or `name:id`). Default `⏳`. */
  readonly busyReaction?: string | undefined;
  /**
   * Dispatch INTERACTION_CREATE (for apps without an Interactions Endpoint URL; with one, Discord
   * sends interactions only over HTTP). Default `true`.
   */
  readonly interactions?: boolean | undefined;
  /** Dispatch MESSAGE_REACTION_ADD and _REMOVE as `reaction` events. Default `true`. */
  readonly reactions?: boolean | undefined;
  /**
   * Other dispatch names (`GUILD_MEMBER_ADD`, ...) to hand to handlers as `raw` events (route with
   * `onEvent(name)`). Default none.
   */
  readonly rawDispatches?: readonly string[] | undefined;
  /**
   * How long the gateway may stay disconnected (while discord.js reconnects) before a
   * `gateway_disconnected` notice tells operators; `gateway_reconnected` follows when it is back.
   * Default 30000.
   */
  readonly disconnectedAlertMs?: number | undefined;
  /** How long `start()` waits for the client to be ready (READY and every guild). Default 60000. */
  readonly readyTimeoutMs?: number | undefined;
  /**
   * Further `discord.js` `ClientOptions` (`waitGuildTimeout`, `ws`, `rest` timeouts, ...), for
   * tuning. They override the adapter's `partials` (`[Partials.Channel]`, needed for DMs); `rest`
   * is merged over `{ api: apiUrl }`; `intents` always come from `intents`.
   */
  readonly clientOptions?: Readonly<Partial<Omit<ClientOptions, 'intents'>>> | undefined;
}

/** The default intents: guilds, guild messages, message content, DMs, guild and DM reactions. */
export const DEFAULT_GATEWAY_INTENTS: number =
  GatewayIntentBits.Guilds |
  GatewayIntentBits.GuildMessages |
  GatewayIntentBits.MessageContent |
  GatewayIntentBits.DirectMessages |
  GatewayIntentBits.GuildMessageReactions |
  GatewayIntentBits.DirectMessageReactions;

/** Defaults of every gateway setting. */
export const DEFAULT_GATEWAY_OPTIONS = Object.freeze({
  intents: DEFAULT_GATEWAY_INTENTS,
  botMessages: 'ignore' as BotMessagePolicy,
  busySignal: 'reply' as MessageBusySignal,
  busyReaction: '⏳',
  interactions: true,
  reactions: true,
  rawDispatches: Object.freeze([]) as readonly string[],
  disconnectedAlertMs: 30_000,
  readyTimeoutMs: 60_000,
});

/** Gateway options with defaults filled in and validated. */
export interface ResolvedGatewayOptions {
  readonly intents: number;
  readonly botMessages: BotMessagePolicy;
  readonly busySignal: MessageBusySignal;
  readonly busyReaction: string;
  readonly interactions: boolean;
  readonly reactions: boolean;
  readonly rawDispatches: ReadonlySet<string>;
  readonly disconnectedAlertMs: number;
  readonly readyTimeoutMs: number;
  readonly clientOptions: Readonly<Partial<Omit<ClientOptions, 'intents'>>>;
}

function intentsOf(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((bit) => Number.isInteger(bit) && bit > 0)
  ) {
    return value.reduce((all: number, bit: number) => all | bit, 0);
  }
  throw new TypeError('gateway.intents must be a positive bit field or a non-empty list of bits');
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
    return value as T;
  throw new TypeError(
    `${name} must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${JSON.stringify(value)}`,
  );
}

function flag(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  throw new TypeError(`${name} must be a boolean`);
}

/**
 * Fills in defaults and validates; throws `TypeError`/`RangeError` naming the bad option
 * (`gateway.intents`, `gateway.busySignal`, ...). `true` means every default.
 */
export function resolveGatewayOptions(value: DiscordGatewayOptions | true): ResolvedGatewayOptions {
  const options: DiscordGatewayOptions = value === true ? {} : value;
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('gateway must be true or an options object');
  }
  const d = DEFAULT_GATEWAY_OPTIONS;
  const raw = options.rawDispatches ?? d.rawDispatches;
  if (
    !Array.isArray(raw) ||
    !raw.every((name) => typeof name === 'string' && /^[A-Z_]+$/.test(name))
  ) {
    throw new TypeError(
      'gateway.rawDispatches must be a list of dispatch names like "GUILD_MEMBER_ADD"',
    );
  }
  const busyReaction = options.busyReaction ?? d.busyReaction;
  if (typeof busyReaction !== 'string' || busyReaction.trim().length === 0) {
    throw new TypeError('gateway.busyReaction must be a non-empty emoji');
  }
  const clientOptions = options.clientOptions ?? {};
  if (typeof clientOptions !== 'object' || clientOptions === null) {
    throw new TypeError('gateway.clientOptions must be an object');
  }
  return Object.freeze({
    intents: intentsOf(options.intents ?? d.intents),
    botMessages: oneOf('gateway.botMessages', options.botMessages ?? d.botMessages, [
      'ignore',
      'others',
      'all',
    ]),
    busySignal: oneOf('gateway.busySignal', options.busySignal ?? d.busySignal, [
      'reply',
      'reaction',
    ]),
    busyReaction,
    interactions: flag('gateway.interactions', options.interactions ?? d.interactions),
    reactions: flag('gateway.reactions', options.reactions ?? d.reactions),
    rawDispatches: new Set(raw),
    disconnectedAlertMs: checkPositiveInteger(
      'gateway.disconnectedAlertMs',
      options.disconnectedAlertMs ?? d.disconnectedAlertMs,
    ),
    readyTimeoutMs: checkPositiveInteger(
      'gateway.readyTimeoutMs',
      options.readyTimeoutMs ?? d.readyTimeoutMs,
    ),
    clientOptions,
  });
}
