import type { FakeDiscordMessage } from '@rt/testing/discord';
import type { FakeSlackMessage } from '@rt/testing/slack';
import type { SimulatorLedger } from '../simulator/ledger.js';
import type { StreamedReply } from './stream-checks.js';

/**
 * The streamed replies the simulated Slack holds: every bot message in a mention's thread, with
 * the event it answers (by its thread), its final text, and its path as Slack saw it (a message
 * started with `chat.startStream` is `slack-stream`, a posted one `slack-update`).
 */
export function slackStreamedReplies(
  ledger: SimulatorLedger,
  messages: readonly FakeSlackMessage[],
): StreamedReply[] {
  const eventByThread = new Map<string, string>();
  for (const record of ledger.events.values()) eventByThread.set(record.thread, record.id);
  const replies: StreamedReply[] = [];
  for (const message of messages) {
    const id = eventByThread.get(`${message.channel}:${message.threadTs ?? ''}`);
    if (id === undefined) continue;
    const path = message.stream === undefined ? 'slack-update' : 'slack-stream';
    replies.push({ platform: 'Slack', id, path, text: message.text });
  }
  return replies;
}

/**
 * The streamed replies the fake Discord holds: every bot message replying to one of `mentions`
 * (its `message_reference`), refusal texts (`isRefusal`) excluded, with its final content.
 */
export function discordStreamedReplies(
  messages: readonly FakeDiscordMessage[],
  mentions: ReadonlySet<string>,
  isRefusal: (text: string) => boolean,
): StreamedReply[] {
  const replies: StreamedReply[] = [];
  for (const message of messages) {
    if (message.replyTo === undefined || !mentions.has(message.replyTo)) continue;
    if (isRefusal(message.content)) continue;
    replies.push({
      platform: 'Discord',
      id: message.replyTo,
      path: 'discord-edit',
      text: message.content,
    });
  }
  return replies;
}

/** One platform's `stream_finished` counts (`path status`), keyed `platform path status`. */
export function observedStreams(
  platform: string,
  byPathStatus: ReadonlyMap<string, number>,
): Map<string, number> {
  return new Map([...byPathStatus].map(([key, count]) => [`${platform} ${key}`, count]));
}
