import {
  actions,
  button,
  card,
  formErrors,
  type HandlerContext,
  option,
  type PostedMessage,
  type RtEvent,
  select,
  UnsupportedActionError,
} from '@rt/core';
import { deferred, EVERY_ELEMENT_CARD, EVERY_FIELD_FORM } from '@rt/testing';
import { failOnUnhandledRejections } from '@rt/testing/adapter';
import {
  buildButton,
  buildChatInputCommand,
  buildModalSubmit,
  buildSelect,
  validateDiscordCallback,
} from '@rt/testing/discord';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, type HarnessOptions, startHarness } from '../test-support/harness.js';

const CREATE = 'POST /channels/:channel/messages' as const;
const EDIT_CHANNEL = 'PATCH /channels/:channel/messages/:message' as const;
const EDIT_WEBHOOK = 'PATCH /webhooks/:application/:token/messages/:message' as const;
const FOLLOW_UP = 'POST /webhooks/:application/:token' as const;

let h: Harness;
afterEach(() => h.close());

/** Runs `body` as the handler of one chat-input command and resolves what it returned or threw. */
async function inCommand<T>(
  body: (ctx: HandlerContext) => Promise<T>,
  options: HarnessOptions = {},
): Promise<T | { error: unknown }> {
  h = await startHarness(options);
  const done = deferred<T | { error: unknown }>();
  h.runtime.onCommand('ask', async (ctx) => {
    try {
      done.resolve(await body(ctx));
    } catch (error) {
      done.resolve({ error });
    }
  });
  // Reading the answer hands it over (replies wait for that, as over a real socket).
  await (await h.send(buildChatInputCommand({ name: 'ask', channelId: '321' }))).text();
  return done.promise;
}

describe('conversation actions on Discord, through the fake REST', () => {
  failOnUnhandledRejections();

  it('reply, post, edit, delete, react, unreact, ephemeral, typing and dm call the right routes', async () => {
    await inCommand(async (ctx) => {
      const reply = await ctx.reply(EVERY_ELEMENT_CARD);
      const top = await ctx.post('**top**', { channel: '900' });
      await ctx.edit(reply, 'edited reply');
      await ctx.edit(top, 'edited top');
      await ctx.react('👀', top);
      await ctx.unreact(':eyes:', top);
      await ctx.delete(top);
      await ctx.ephemeral('only you');
      await ctx.typing();
      await ctx.dm('42', 'direct');
    });
    const [original, edited] = h.fake.callsTo(EDIT_WEBHOOK);
    expect(original?.params.message).toBe('@original');
    expect(original?.body).toMatchObject({ flags: 1 << 15 });
    expect(edited?.body).toMatchObject({ content: 'edited reply' });
    expect(
      h.fake
        .callsTo(CREATE)
        .map((c) => [c.params.channel, (c.body as { content: string }).content]),
    ).toEqual([
      ['900', '**top**'],
      ['dm-42', 'direct'],
    ]);
    expect(h.fake.callsTo(EDIT_CHANNEL)[0]?.body).toMatchObject({ content: 'edited top' });
    expect(
      h.fake.callsTo('PUT /channels/:channel/messages/:message/reactions/:emoji/@me')[0]?.params,
    ).toMatchObject({
      channel: '900',
      emoji: '👀',
    });
    expect(
      h.fake.callsTo('DELETE /channels/:channel/messages/:message/reactions/:emoji/@me'),
    ).toHaveLength(1);
    expect(h.fake.callsTo('DELETE /channels/:channel/messages/:message')).toHaveLength(1);
    expect(h.fake.callsTo(FOLLOW_UP)[0]?.body).toMatchObject({ content: 'only you', flags: 64 });
    expect(h.fake.callsTo('POST /channels/:channel/typing')[0]?.params.channel).toBe('321');
    expect(h.fake.callsTo('POST /users/@me/channels')[0]?.body).toEqual({ recipient_id: '42' });
    expect(h.fake.rejections).toEqual([]);
    const observed = h.observations.flatMap((o) =>
      o.type === 'conversation_action' ? [`${o.action}:${o.outcome}`] : [],
    );
    expect(observed).toEqual([
      'reply:ok',
      'post:ok',
      'edit:ok',
      'edit:ok',
      'react:ok',
      'unreact:ok',
      'delete:ok',
      'ephemeral:ok',
      'typing:ok',
      'dm:ok',
    ]);
  });

  it('posts long text as several messages split at paragraphs', async () => {
    const paragraph = 'word '.repeat(300).trim();
    await inCommand((ctx) => ctx.post(`${paragraph}\n\n${paragraph}`));
    expect(h.fake.callsTo(CREATE).map((c) => (c.body as { content: string }).content)).toEqual([
      paragraph,
      paragraph,
    ]);
  });

  it('refuses a reaction without a target message, and ephemeral messages outside interactions', async () => {
    const refused = (await inCommand((ctx) => ctx.react('👀'))) as {
      error: UnsupportedActionError;
    };
    expect(refused.error).toBeInstanceOf(UnsupportedActionError);
    expect(refused.error.action).toBe('react');
    const message: RtEvent = {
      adapter: 'discord',
      tenant: 'G1',
      id: 'm1',
      kind: 'message',
      shape: 'message_create',
      channel: '500',
      user: '7',
      receivedAt: Date.now(),
      payload: { id: 'm1', channel_id: '500' },
    };
    const signal = new AbortController().signal;
    await expect(h.adapter.actions.ephemeral(message, 'psst', { signal })).rejects.toMatchObject({
      code: 'RT_UNSUPPORTED_ACTION',
      action: 'ephemeral',
    });
    expect(h.fake.callsTo(FOLLOW_UP)).toEqual([]);
  });

  it('refuses openForm once a deferred interaction was answered', async () => {
    const refused = (await inCommand((ctx) => ctx.openForm(EVERY_FIELD_FORM))) as {
      error: UnsupportedActionError;
    };
    expect(refused.error).toBeInstanceOf(UnsupportedActionError);
    expect(refused.error.reason).toMatch(/sync/);
  });

  it("cancels an action in flight when the handler's signal aborts", async () => {
    h = await startHarness({ runtime: { detachTimeoutMs: 100 } });
    h.fake.hang(EDIT_WEBHOOK);
    const done = deferred<unknown>();
    h.runtime.onCommand('ask', (ctx) =>
      ctx.reply('never').catch((error: unknown) => done.resolve(error)),
    );
    await (await h.send(buildChatInputCommand({ name: 'ask' }))).text();
    expect((await done.promise) as { code?: string }).toMatchObject({ code: 'RT_DETACH_TIMEOUT' });
    expect(
      h.observations.some((o) => o.type === 'conversation_action' && o.outcome === 'aborted'),
    ).toBe(true);
  });
});

describe('round trips on Discord', () => {
  it('a button and a select on a posted card reach onAction with event.value and the message', async () => {
    const posted = (await inCommand((ctx) =>
      ctx.post(
        card(
          {},
          actions(button('ship', 'Ship', { value: 'v2' }), select('env', [option('Prod', 'prod')])),
        ),
        { channel: '900' },
      ),
    )) as PostedMessage;
    const body = h.fake.callsTo(CREATE)[0]?.body as {
      components: { components: { components: { custom_id: string }[] }[] }[];
    };
    const [buttons, selects] = body.components[0]?.components ?? [];
    const seen: RtEvent[] = [];
    const both = deferred();
    h.runtime.onAction(/^(ship|env)$/, (ctx) => {
      seen.push(ctx.event);
      if (seen.length === 2) both.resolve();
    });
    const customId = buttons?.components[0]?.custom_id;
    await (
      await h.send(buildButton({ customId, messageId: posted.id, channelId: posted.channel }))
    ).text();
    await h.send(
      buildSelect({
        customId: selects?.components[0]?.custom_id,
        values: ['prod'],
        messageId: posted.id,
        channelId: posted.channel,
      }),
    );
    await both.promise;
    expect(customId).toBe('ship|v2');
    expect(seen.map((e) => [e.actionId, e.value, e.message?.id, e.message?.channel])).toEqual([
      ['ship', 'v2', posted.id, '900'],
      ['env', 'prod', posted.id, '900'],
    ]);
  });

  it('a sync command opens the form as its modal answer, which Discord accepts', async () => {
    h = await startHarness({ adapter: { syncCommands: ['feedback'] } });
    h.runtime.onCommand('feedback', (ctx) => ctx.openForm(EVERY_FIELD_FORM));
    const answer = await (await h.send(buildChatInputCommand({ name: 'feedback' }))).json();
    expect(answer).toMatchObject({ type: 9, data: { custom_id: 'feedback', title: 'Feedback' } });
    expect(validateDiscordCallback(answer)).toEqual([]);
  });

  it('a submitted form gives event.values, and returned errors come back ephemeral', async () => {
    h = await startHarness();
    const values: unknown[] = [];
    const shown = deferred();
    h.runtime.onFormSubmit('feedback', (ctx) => {
      values.push(ctx.event.values);
      return formErrors({ title: 'Too short' });
    });
    const submitted = await h.send(
      buildModalSubmit({
        customId: 'feedback',
        labels: true,
        fields: { title: 'Hi', body: '' },
        selects: { mood: ['bad'] },
      }),
    );
    await submitted.text();
    await h.fake.waitForCalls(FOLLOW_UP).then(() => shown.resolve());
    await shown.promise;
    expect(values).toEqual([{ title: 'Hi', body: '', mood: 'bad' }]);
    expect(h.fake.callsTo(FOLLOW_UP)[0]?.body).toMatchObject({
      content: '**title**: Too short',
      flags: 64,
    });
  });

  it('a sync form submit answers its errors as an ephemeral message', async () => {
    h = await startHarness({ adapter: { dispatchModes: { modal_submit: 'sync' } } });
    h.runtime.onFormSubmit('feedback', () => formErrors({ title: 'Too short' }));
    const answer = await (await h.send(buildModalSubmit({ customId: 'feedback' }))).json();
    expect(answer).toMatchObject({ type: 4, data: { content: '**title**: Too short', flags: 64 } });
  });

  it('discord.for(ctx) gives the typed platform calls bound to the handler, and refuses another adapter’s ctx', async () => {
    const result = await inCommand(async (ctx) => {
      const platform = h.adapter.for(ctx);
      expect(platform.signal).toBe(ctx.signal);
      await platform.followUp('raw follow-up');
      expect(() =>
        h.adapter.for({ ...ctx, event: { ...ctx.event, adapter: 'other' } } as HandlerContext),
      ).toThrow(TypeError);
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(h.fake.callsTo(FOLLOW_UP)[0]?.body).toMatchObject({ content: 'raw follow-up' });
  });
});
