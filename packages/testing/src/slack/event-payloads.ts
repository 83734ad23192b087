import { jsonPayload, nextSeq, type SlackTestPayload } from './payload.js';

/** Defaults used by every builder: one workspace, one app, one bot, one user, one channel. */
export const SLACK_TEST_IDS = Object.freeze({
  teamId: 'T0TEAM',
  enterpriseId: 'E0ORG',
  apiAppId: 'A0APP',
  botUserId: 'U0BOT',
  botId: 'B0BOT',
  userId: 'U0USER',
  channelId: 'C0CHAN',
});

/** Envelope options of an Events API delivery. */
export interface EventEnvelopeOptions {
  /** Default `Ev<seq>`: unique per build, stable across redeliveries you send yourself. */
  readonly eventId?: string;
  readonly teamId?: string;
  /** Set for Enterprise Grid workspaces and org-wide installs. */
  readonly enterpriseId?: string;
  /** An org-wide install: the tenant becomes the enterprise id. */
  readonly isEnterpriseInstall?: boolean;
  readonly apiAppId?: string;
  /** The bot user the delivery is authorised for. Default `U0BOT`. */
  readonly botUserId?: string;
  /** Epoch seconds. Default now. */
  readonly eventTime?: number;
}

function ts(): string {
  return `${1_700_000_000 + nextSeq()}.000100`;
}

/** Wraps an inner event in an `event_callback` envelope with `authorizations[0]`. */
export function buildEventCallback(
  event: Record<string, unknown>,
  options: EventEnvelopeOptions = {},
): SlackTestPayload {
  const teamId = options.teamId ?? SLACK_TEST_IDS.teamId;
  const enterpriseId = options.enterpriseId ?? null;
  const isEnterpriseInstall = options.isEnterpriseInstall ?? false;
  return jsonPayload({
    token: 'legacy-verification-token',
    team_id: teamId,
    enterprise_id: enterpriseId,
    api_app_id: options.apiAppId ?? SLACK_TEST_IDS.apiAppId,
    event,
    type: 'event_callback',
    event_id: options.eventId ?? `Ev${String(nextSeq()).padStart(8, '0')}`,
    event_time: options.eventTime ?? Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: enterpriseId,
        team_id: isEnterpriseInstall ? null : teamId,
        user_id: options.botUserId ?? SLACK_TEST_IDS.botUserId,
        is_bot: true,
        is_enterprise_install: isEnterpriseInstall,
      },
    ],
    is_ext_shared_channel: false,
  });
}

/** Options of a `message` event. */
export interface MessageEventOptions extends EventEnvelopeOptions {
  readonly text?: string;
  readonly channel?: string;
  readonly user?: string;
  readonly ts?: string;
  /** Set for replies in a thread. */
  readonly threadTs?: string;
  readonly subtype?: string;
  /** Marks the message as a bot's (with `app_id` when given). */
  readonly botId?: string;
  readonly appId?: string;
  readonly channelType?: 'channel' | 'group' | 'im' | 'mpim';
}

/** A `message` event delivery. */
export function buildMessageEvent(options: MessageEventOptions = {}): SlackTestPayload {
  const messageTs = options.ts ?? ts();
  const event: Record<string, unknown> = {
    type: 'message',
    channel: options.channel ?? SLACK_TEST_IDS.channelId,
    text: options.text ?? 'hello',
    ts: messageTs,
    event_ts: messageTs,
    channel_type: options.channelType ?? 'channel',
  };
  if (options.subtype !== undefined) event.subtype = options.subtype;
  if (options.botId !== undefined) {
    event.bot_id = options.botId;
    if (options.appId !== undefined) event.app_id = options.appId;
    if (options.user !== undefined) event.user = options.user;
  } else {
    event.user = options.user ?? SLACK_TEST_IDS.userId;
  }
  if (options.threadTs !== undefined) event.thread_ts = options.threadTs;
  return buildEventCallback(event, options);
}

/** Options of an `app_mention` event. */
export interface AppMentionOptions extends EventEnvelopeOptions {
  readonly text?: string;
  readonly channel?: string;
  readonly user?: string;
  readonly ts?: string;
  readonly threadTs?: string;
}

/** An `app_mention` event delivery. */
export function buildAppMentionEvent(options: AppMentionOptions = {}): SlackTestPayload {
  const messageTs = options.ts ?? ts();
  const event: Record<string, unknown> = {
    type: 'app_mention',
    user: options.user ?? SLACK_TEST_IDS.userId,
    text: options.text ?? `<@${options.botUserId ?? SLACK_TEST_IDS.botUserId}> hi`,
    channel: options.channel ?? SLACK_TEST_IDS.channelId,
    ts: messageTs,
    event_ts: messageTs,
  };
  if (options.threadTs !== undefined) event.thread_ts = options.threadTs;
  return buildEventCallback(event, options);
}

/** Options of a reaction event. */
export interface ReactionEventOptions extends EventEnvelopeOptions {
  /** Default `reaction_added`. */
  readonly type?: 'reaction_added' | 'reaction_removed';
  /** Emoji name without colons. Default `thumbsup`. */
  readonly reaction?: string;
  readonly user?: string;
  readonly channel?: string;
  /** The reacted-to message. */
  readonly itemTs?: string;
}

/** A `reaction_added` (or `reaction_removed`) event delivery. */
export function buildReactionEvent(options: ReactionEventOptions = {}): SlackTestPayload {
  const eventTs = ts();
  return buildEventCallback(
    {
      type: options.type ?? 'reaction_added',
      user: options.user ?? SLACK_TEST_IDS.userId,
      reaction: options.reaction ?? 'thumbsup',
      item_user: SLACK_TEST_IDS.botUserId,
      item: {
        type: 'message',
        channel: options.channel ?? SLACK_TEST_IDS.channelId,
        ts: options.itemTs ?? ts(),
      },
      event_ts: eventTs,
    },
    options,
  );
}

/** The `url_verification` handshake Slack sends when the Request URL is saved. */
export function buildUrlVerification(challenge = `challenge-${nextSeq()}`): SlackTestPayload {
  return jsonPayload({ token: 'legacy-verification-token', challenge, type: 'url_verification' });
}

/** The `app_rate_limited` notice (no inner event). */
export function buildAppRateLimited(
  options: { teamId?: string; apiAppId?: string; minuteRateLimited?: number } = {},
): SlackTestPayload {
  return jsonPayload({
    token: 'legacy-verification-token',
    type: 'app_rate_limited',
    team_id: options.teamId ?? SLACK_TEST_IDS.teamId,
    minute_rate_limited: options.minuteRateLimited ?? Math.floor(Date.now() / 60_000) * 60,
    api_app_id: options.apiAppId ?? SLACK_TEST_IDS.apiAppId,
  });
}
