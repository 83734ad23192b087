import type { RtEvent } from '@rt/core';
import { deferred } from '@rt/testing';
import { buildButton, buildChatInputCommand } from '@rt/testing/discord';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOT_TOKEN, type Harness, startHarness } from '../test-support/harness.js';

const CREATE = 'POST /channels/:channel/messages' as const;
const EDIT_ORIGINAL = 'PATCH /webhooks/:application/:token/messages/:message' as const;
const FOLLOW_UP = 'POST /webhooks/:application/:token' as const;

describe('outbound through @discordjs/rest', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness({ runtime: { maxDetached: 8 } });
  });
  afterEach(async () => {
    await h.close();
  });

  it('posts channel messages with the bot token and says where they landed', async () => {
    const posted = await h.adapter.send('123', {
      text: 'hello',
      extra: { embeds: [{ title: 'x' }] },
    });
    const [call] = h.fake.callsTo(CREATE);
    expect(call).toMatchObject({
      params: { channel: '123' },
      token: BOT_TOKEN,
      body: { content: 'hello', embeds: [{ title: 'x' }] },
    });
    expect(posted).toEqual({ channel: '123', id: expect.any(String) });
  });

  it('replies to a message with a message_reference (a reply, not a thread)', async () => {
    await h.adapter.replyTo('123', '456', 'answer');
    expect(h.fake.callsTo(CREATE)[0]?.body).toEqual({
      content: 'answer',
      message_reference: { message_id: '456', fail_if_not_exists: false },
    });
  });

  it('starts threads from a message or on their own', async () => {
    expect(await h.adapter.startThread('123', 'Topic', { messageId: '456' })).toBe('456');
    const standalone = await h.adapter.startThread('123', 'Other', { autoArchiveMinutes: 60 });
    expect(standalone).toMatch(/^\d+$/);
    expect(h.fake.callsTo('POST /channels/:channel/threads')[0]?.body).toEqual({
      name: 'Other',
      type: 11,
      auto_archive_duration: 60,
    });
  });

  it('reacts with an encoded emoji; the empty 204 answer is handled', async () => {
    const event = {
      adapter: 'discord',
      tenant: 'G',
      id: 'e',
      kind: 'message',
      shape: 'message_create',
      receivedAt: 0,
      payload: {},
    } as RtEvent;
    const target = { channel: '123', id: '456' };
    await expect(h.adapter.react(event, '👍', target)).resolves.toBeUndefined();
    await h.adapter.react(event, 'party:999', target);
    const calls = h.fake.callsTo('PUT /channels/:channel/messages/:message/reactions/:emoji/@me');
    expect(calls.map((c) => c.params.emoji)).toEqual(['👍', 'party:999']);
  });

  it('reads history newest-first pages into oldest-first messages, from the thread when there is one', async () => {
    const messages = Array.from({ length: 120 }, (_, i) => ({
      id: String(1000 + i),
      content: `m${i}`,
      author: { id: i % 2 === 0 ? '1' : '2', bot: i % 2 === 1 },
      timestamp: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    }));
    h.fake.seedMessages('333', messages);
    const event = { id: 'e', thread: '333', channel: '222' } as RtEvent;
    const history = await h.adapter.readHistory(event, { limit: 110 });
    expect(history).toHaveLength(110);
    expect(history[0]).toEqual({
      id: '1010',
      user: '1',
      text: 'm10',
      at: 1_700_000_010_000,
      fromBot: false,
    });
    expect(history.at(-1)).toMatchObject({ id: '1119', fromBot: true });
    expect(h.fake.callsTo('GET /channels/:channel/messages').map((c) => c.query)).toEqual([
      { limit: '100' },
      { limit: '10', before: '1020' },
    ]);
    await expect(h.adapter.readHistory({ id: 'x' } as RtEvent)).rejects.toMatchObject({
      code: 'RT_DISCORD_NO_TARGET',
    });
  });

  it('retries a 5xx once, then fails with DiscordCallError (an outage cannot hold a slot for minutes)', async () => {
    h.fake.fail(CREATE, { status: 502 });
    await expect(h.adapter.send('123', 'x')).rejects.toMatchObject({
      code: 'RT_DISCORD_CALL',
      status: 502,
    });
    expect(h.fake.callsTo(CREATE)).toHaveLength(2);
  });

  it('does not retry a 4xx, and keeps Discord’s error code', async () => {
    h.fake.fail(CREATE, { status: 403, code: 50013, message: 'Missing Permissions' });
    await expect(h.adapter.send('123', 'x')).rejects.toMatchObject({
      status: 403,
      discordCode: 50013,
    });
    expect(h.fake.callsTo(CREATE)).toHaveLength(1);
  });

  it('rejects with the signal’s reason when the call is aborted', async () => {
    h.fake.hang(CREATE);
    const controller = new AbortController();
    const sending = h.adapter.send('123', 'x', { signal: controller.signal });
    await h.fake.waitForCalls(CREATE);
    const reason = new Error('handler gave up');
    controller.abort(reason);
    await expect(sending).rejects.toBe(reason);
  });

  it('ctx.reply edits @original once after a type 5, then follows up, keeping the ephemeral decision', async () => {
    await h.close();
    h = await startHarness({ adapter: { ephemeral: true } });
    const done = deferred();
    h.runtime.onCommand('ask', async (ctx) => {
      const first = await ctx.reply('first');
      const second = await ctx.reply('second');
      expect(first.id).not.toBe(second.id);
      done.resolve();
    });
    const payload = buildChatInputCommand({ name: 'ask', channelId: '321' });
    await (await h.send(payload)).json();
    await done.promise;
    const users = { parse: ['users'] };
    expect(h.fake.callsTo(EDIT_ORIGINAL).map((c) => c.body)).toEqual([
      { content: 'first', allowed_mentions: users },
    ]);
    expect(h.fake.callsTo(FOLLOW_UP).map((c) => c.body)).toEqual([
      { content: 'second', flags: 64, allowed_mentions: users },
    ]);
    expect(h.fake.callsTo(FOLLOW_UP)[0]?.params.token).toBe(payload.token);
  });

  it('a deferred handler replying at once waits until the answer was handed over, so Discord never sees the follow-up first', async () => {
    const replied = deferred();
    const replying = deferred();
    h.runtime.onAction('approve', async (ctx) => {
      replying.resolve();
      await ctx.reply('clicked');
      replied.resolve();
    });
    const response = await h.send(buildButton({ customId: 'approve' }));
    // The handler is replying already, but the answer's body has not been read (sent) yet.
    await replying.promise;
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(h.fake.calls).toEqual([]);
    expect(await response.json()).toEqual({ type: 6 });
    await replied.promise;
    expect(h.fake.callsTo(FOLLOW_UP)).toHaveLength(1);
  });
});
