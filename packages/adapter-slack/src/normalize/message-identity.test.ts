import type { RtEvent } from '@rt/core';
import { installationMarkKey } from '@rt/core/adapter';
import { fakeRuntimeHandle } from '@rt/testing/adapter';
import {
  buildAppMentionEvent,
  buildEventCallback,
  buildMessageEvent,
  buildReactionEvent,
  createSlackSigner,
  type SlackTestPayload,
} from '@rt/testing/slack';
import { describe, expect, it } from 'vitest';
import type { SlackAdapterOptions } from '../options.js';
import { createSlackAdapter } from '../slack-adapter.js';
import { SECRET } from '../test-support/harness.js';
import { mentionsUser } from './message-identity.js';

async function eventOf(
  payload: SlackTestPayload,
  options: Partial<SlackAdapterOptions> = {},
): Promise<RtEvent> {
  const adapter = createSlackAdapter({ signingSecret: SECRET, botToken: 'x', ...options });
  const runtime = fakeRuntimeHandle();
  adapter.attach(runtime);
  await adapter.handler(createSlackSigner(SECRET).request(payload));
  const [event] = runtime.dispatched;
  if (event === undefined) throw new Error('not dispatched');
  return event;
}

const key = (kind: string, id: string, tenant = 'T0TEAM') =>
  installationMarkKey(kind, 'slack', tenant, id);

describe('the secondary identity of Slack events', () => {
  it('gives a message the identity (channel, ts) of its installation', async () => {
    const event = await eventOf(buildMessageEvent({ channel: 'C1', ts: '5.1' }));
    expect(event.aliases).toEqual([key('message', 'C1:5.1')]);
    expect(event.aliases?.[0]).toBe('message:slack:T0TEAM:C1%3A5.1');
  });

  it('keys an org-wide install on the enterprise, like the event id', async () => {
    const payload = buildMessageEvent({
      channel: 'C1',
      ts: '5.1',
      teamId: 'T1',
      enterpriseId: 'E1',
      isEnterpriseInstall: true,
    });
    expect((await eventOf(payload)).aliases).toEqual([key('message', 'C1:5.1', 'E1')]);
  });

  it('gives a thread reply its own ts, not the thread root', async () => {
    const event = await eventOf(buildMessageEvent({ channel: 'C1', ts: '5.2', threadTs: '5.1' }));
    expect(event.aliases).toEqual([key('message', 'C1:5.2')]);
  });

  it('gives an app_mention the identity of its message by default, and its own with "both"', async () => {
    const mention = buildAppMentionEvent({ channel: 'C1', ts: '5.1' });
    expect((await eventOf(mention)).aliases).toEqual([key('message', 'C1:5.1')]);
    expect((await eventOf(mention, { mentionAndMessage: 'both' })).aliases).toEqual([
      key('mention', 'C1:5.1'),
    ]);
  });

  it('keys an edit on the edited message ts plus its own ts, apart from the message', async () => {
    const edit = (ownTs: string) =>
      buildEventCallback({
        type: 'message',
        subtype: 'message_changed',
        channel: 'C1',
        ts: ownTs,
        event_ts: ownTs,
        message: { type: 'message', user: 'U0USER', text: 'fixed', ts: '5.1' },
        previous_message: { type: 'message', user: 'U0USER', text: 'fxed', ts: '5.1' },
      });
    const options = { ignoredMessageSubtypes: [] };
    expect((await eventOf(edit('6.1'), options)).aliases).toEqual([
      key('message-edit', 'C1:5.1:6.1'),
    ]);
    expect((await eventOf(edit('7.1'), options)).aliases).toEqual([
      key('message-edit', 'C1:5.1:7.1'),
    ]);
  });

  it('keys a deletion notice on the deleted ts', async () => {
    const deleted = buildEventCallback({
      type: 'message',
      subtype: 'message_deleted',
      channel: 'C1',
      ts: '8.1',
      deleted_ts: '5.1',
      previous_message: { type: 'message', user: 'U0USER', text: 'gone', ts: '5.1' },
    });
    expect((await eventOf(deleted, { ignoredMessageSubtypes: [] })).aliases).toEqual([
      key('message-delete', 'C1:5.1'),
    ]);
  });

  it('gives no secondary identity without a channel or ts, nor to reactions and other events', async () => {
    const noTs = buildEventCallback({ type: 'message', channel: 'C1', user: 'U1', text: 'x' });
    expect((await eventOf(noTs)).aliases).toBeUndefined();
    expect((await eventOf(buildReactionEvent())).aliases).toBeUndefined();
    const join = buildEventCallback({ type: 'member_joined_channel', channel: 'C1', ts: '1.1' });
    expect((await eventOf(join)).aliases).toBeUndefined();
  });
});

describe('the message copy of a message that mentions the bot', () => {
  const text = '<@U0BOT> deploy please';

  it('is a mention falling back to message, by default', async () => {
    const event = await eventOf(buildMessageEvent({ text, channel: 'C1', ts: '5.1' }));
    expect(event).toMatchObject({
      kind: 'mention',
      fallbackKind: 'message',
      type: 'message',
      aliases: [key('message', 'C1:5.1')],
    });
  });

  it('stays a message with "both"', async () => {
    const event = await eventOf(buildMessageEvent({ text }), { mentionAndMessage: 'both' });
    expect(event.kind).toBe('message');
    expect(event.fallbackKind).toBeUndefined();
  });

  it('recognises the bot from botUserId over the delivery authorizations', async () => {
    const payload = buildMessageEvent({ text: '<@U0OTHERBOT> hi', botUserId: 'U0BOT' });
    expect((await eventOf(payload)).kind).toBe('message');
    expect((await eventOf(payload, { botUserId: 'U0OTHERBOT' })).kind).toBe('mention');
  });

  it('stays a message when the bot user is unknown', async () => {
    const payload = buildMessageEvent({ text });
    const data = { ...payload.data, authorizations: [] };
    const event = await eventOf({ ...payload, data, body: JSON.stringify(data) });
    expect(event.kind).toBe('message');
  });

  it('recognises <@U…> and <@U…|name>, never a longer id or another user', () => {
    expect(mentionsUser('<@U0BOT> hi', 'U0BOT')).toBe(true);
    expect(mentionsUser('hi <@U0BOT|bot>', 'U0BOT')).toBe(true);
    expect(mentionsUser('<@U0BOTX> hi', 'U0BOT')).toBe(false);
    expect(mentionsUser('U0BOT hi', 'U0BOT')).toBe(false);
    expect(mentionsUser(undefined, 'U0BOT')).toBe(false);
  });
});

describe('the mentionAndMessage option', () => {
  it('refuses anything but "mention-wins" or "both", naming the option', () => {
    expect(() =>
      createSlackAdapter({ botToken: 'x', mentionAndMessage: 'mention' as never }),
    ).toThrow(new TypeError('mentionAndMessage must be "mention-wins" or "both", got "mention"'));
  });
});
