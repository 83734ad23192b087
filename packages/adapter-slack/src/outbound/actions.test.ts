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
import {
  buildBlockActions,
  buildMessageEvent,
  buildSlashCommand,
  buildViewSubmission,
} from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';

let h: Harness;
afterEach(() => h.close());

/** Runs `body` as the handler of one message event and resolves what it returned (or threw). */
async function inHandler<T>(
  body: (ctx: HandlerContext) => Promise<T>,
  options: { channelType?: 'im'; threadTs?: string } = {},
): Promise<T | { error: unknown }> {
  const done = deferred<T | { error: unknown }>();
  h.runtime.onMessage(async (ctx) => {
    try {
      done.resolve(await body(ctx));
    } catch (error) {
      done.resolve({ error });
    }
  });
  expect(
    (
      await h.send(
        buildMessageEvent({
          text: 'hi',
          channel: 'C1',
          ts: '1700000000.000100',
          ...(options.channelType ? { channelType: options.channelType } : {}),
          ...(options.threadTs ? { threadTs: options.threadTs } : {}),
        }),
      )
    ).status,
  ).toBe(200);
  return done.promise;
}

describe('conversation actions on Slack, through the fake Web API', () => {
  it('reply, post, edit, delete, react, unreact and dm call the right methods', async () => {
    h = await startHarness();
    const posted = (await inHandler(async (ctx) => {
      const reply = await ctx.reply(EVERY_ELEMENT_CARD);
      const top = await ctx.post('**top**', { channel: 'C2' });
      await ctx.edit(top, 'edited');
      await ctx.delete(top);
      await ctx.react('👀');
      await ctx.unreact(':eyes:', reply);
      await ctx.dm('U9', 'hello');
      return reply;
    })) as PostedMessage;
    const [replied, top, dm] = h.fake.callsTo('chat.postMessage');
    expect(replied?.args).toMatchObject({ channel: 'C1', thread_ts: '1700000000.000100' });
    expect(replied?.args.blocks).toHaveLength(7);
    expect(top?.args).toMatchObject({ channel: 'C2', text: '*top*' });
    expect(top?.args.thread_ts).toBeUndefined();
    expect(h.fake.callsTo('chat.update')[0]?.args).toMatchObject({ channel: 'C2', text: 'edited' });
    expect(h.fake.callsTo('chat.delete')[0]?.args).toMatchObject({ channel: 'C2' });
    expect(h.fake.callsTo('reactions.add')[0]?.args).toMatchObject({
      channel: 'C1',
      timestamp: '1700000000.000100',
      name: 'eyes',
    });
    expect(h.fake.callsTo('reactions.remove')[0]?.args).toMatchObject({
      timestamp: posted.id,
      name: 'eyes',
    });
    expect(h.fake.callsTo('conversations.open')[0]?.args).toMatchObject({ users: 'U9' });
    expect(dm?.args).toMatchObject({ channel: 'DU9', text: 'hello' });
    expect(h.fake.rejections).toEqual([]);
    const observed = h.observations.filter((o) => o.type === 'conversation_action');
    expect(
      observed.map((o) => o.type === 'conversation_action' && `${o.action}:${o.outcome}`),
    ).toEqual(['reply:ok', 'post:ok', 'edit:ok', 'delete:ok', 'react:ok', 'unreact:ok', 'dm:ok']);
  });

  it('answers ephemerally through response_url for the invoker, chat.postEphemeral otherwise', async () => {
    h = await startHarness();
    const done = deferred();
    h.runtime.onCommand('rt', async (ctx) => {
      await ctx.ephemeral('only you');
      await ctx.ephemeral('only them', { user: 'U7' });
      done.resolve();
    });
    await h.send(buildSlashCommand({ responseUrl: h.fake.responseUrl(), channelId: 'C1' }));
    await done.promise;
    expect(h.fake.callsTo('response_url')[0]?.args).toMatchObject({
      text: 'only you',
      response_type: 'ephemeral',
    });
    expect(h.fake.callsTo('chat.postEphemeral')[0]?.args).toMatchObject({
      user: 'U7',
      channel: 'C1',
      text: 'only them',
    });
  });

  it('shows typing only in an assistant thread, else UnsupportedActionError with nothing sent', async () => {
    h = await startHarness();
    const refused = (await inHandler((ctx) => ctx.typing())) as { error: unknown };
    expect(refused.error).toBeInstanceOf(UnsupportedActionError);
    expect(refused.error).toMatchObject({ action: 'typing', adapter: 'slack' });
    expect(h.fake.callsTo('assistant.threads.setStatus')).toEqual([]);
    await h.close();
    h = await startHarness();
    await inHandler((ctx) => ctx.typing(), { channelType: 'im', threadTs: '1700000000.000001' });
    expect(h.fake.callsTo('assistant.threads.setStatus')[0]?.args).toMatchObject({
      channel_id: 'C1',
      thread_ts: '1700000000.000001',
    });
  });

  it('refuses openForm without a trigger_id before any call', async () => {
    h = await startHarness();
    const refused = (await inHandler((ctx) => ctx.openForm(EVERY_FIELD_FORM))) as {
      error: UnsupportedActionError;
    };
    expect(refused.error).toBeInstanceOf(UnsupportedActionError);
    expect(refused.error.reason).toMatch(/trigger_id/);
    expect(h.fake.callsTo('views.open')).toEqual([]);
  });

  it('refuses openForm once the trigger_id is older than its 3 s, before any call', async () => {
    h = await startHarness();
    const signal = new AbortController().signal;
    const stale: RtEvent = {
      adapter: 'slack',
      tenant: 'T0TEAM',
      id: 'tr-old',
      kind: 'command',
      shape: 'slash_command',
      receivedAt: Date.now() - 3001,
      payload: { team_id: 'T0TEAM', trigger_id: 'tr-old' },
    };
    await expect(
      h.adapter.actions.openForm(stale, EVERY_FIELD_FORM, { signal }),
    ).rejects.toMatchObject({
      code: 'RT_UNSUPPORTED_ACTION',
      reason: expect.stringMatching(/expired/),
    });
    await h.adapter.actions.openForm({ ...stale, receivedAt: Date.now() }, EVERY_FIELD_FORM, {
      signal,
    });
    expect(h.fake.callsTo('views.open')).toHaveLength(1);
  });

  it("cancels an action in flight when the handler's signal aborts", async () => {
    h = await startHarness({ runtime: { detachTimeoutMs: 100 } });
    h.fake.hang('chat.postMessage');
    const result = (await inHandler((ctx) => ctx.post('never'))) as { error: unknown };
    expect((result.error as { code?: string }).code).toBe('RT_DETACH_TIMEOUT');
    await h.observed((o) => o.type === 'conversation_action' && o.outcome === 'aborted');
  });
});

describe('round trips on Slack', () => {
  it('a button and a select on a posted card reach onAction with event.value and the message', async () => {
    h = await startHarness();
    const posted = (await inHandler((ctx) =>
      ctx.reply(
        card(
          { title: 'Pick' },
          actions(button('ship', 'Ship', { value: 'v2' }), select('env', [option('Prod', 'prod')])),
        ),
      ),
    )) as PostedMessage;
    const blocks = h.fake.callsTo('chat.postMessage')[0]?.args.blocks as {
      elements?: { action_id: string; value?: string; options?: { value: string }[] }[];
    }[];
    const [rendered, menu] = blocks[1]?.elements ?? [];
    const seen: RtEvent[] = [];
    const both = deferred();
    h.runtime.onAction(/^(ship|env)$/, (ctx) => {
      seen.push(ctx.event);
      if (seen.length === 2) both.resolve();
    });
    await h.send(
      buildBlockActions({
        actionId: rendered?.action_id,
        value: rendered?.value,
        channelId: posted.channel,
        messageTs: posted.id,
      }),
    );
    await h.send(
      buildBlockActions({
        actionId: menu?.action_id,
        selectedValue: menu?.options?.[0]?.value,
        channelId: posted.channel,
        messageTs: posted.id,
      }),
    );
    await both.promise;
    expect(seen.map((e) => [e.actionId, e.value, e.message?.id, e.message?.channel])).toEqual([
      ['ship', 'v2', posted.id, 'C1'],
      ['env', 'prod', posted.id, 'C1'],
    ]);
  });

  it('a form opened from a command submits event.values, and returned errors keep it open', async () => {
    h = await startHarness();
    const opened = deferred();
    h.runtime.onCommand('rt', async (ctx) => {
      await ctx.openForm(EVERY_FIELD_FORM);
      opened.resolve();
    });
    await h.send(buildSlashCommand());
    await opened.promise;
    const view = h.fake.callsTo('views.open')[0]?.args.view as {
      callback_id: string;
      blocks: Record<string, unknown>[];
    };
    expect(h.fake.rejections).toEqual([]);
    const values: unknown[] = [];
    h.runtime.onFormSubmit('feedback', (ctx) => {
      values.push(ctx.event.values);
      return formErrors({ title: 'Too short' });
    });
    const answer = await h.send(
      buildViewSubmission({
        view: {
          callbackId: view.callback_id,
          blocks: view.blocks,
          stateValues: {
            title: { title: { type: 'plain_text_input', value: 'Hi' } },
            body: { body: { type: 'plain_text_input', value: null } },
            mood: { mood: { type: 'static_select', selected_option: { value: 'bad' } } },
          },
        },
      }),
    );
    expect(values).toEqual([{ title: 'Hi', body: '', mood: 'bad' }]);
    expect(await answer.json()).toEqual({
      response_action: 'errors',
      errors: { title: 'Too short' },
    });
  });

  it('slack.for(ctx) gives the typed platform calls bound to the handler, and refuses another adapter’s ctx', async () => {
    h = await startHarness();
    const result = (await inHandler(async (ctx) => {
      const platform = h.adapter.for(ctx);
      await platform.api((client, args) =>
        client.chat.postMessage(args({ channel: 'C5', text: 'raw' })),
      );
      await platform.post('plain', { threadTs: '1.2' });
      expect(() =>
        h.adapter.for({ ...ctx, event: { ...ctx.event, adapter: 'other' } } as HandlerContext),
      ).toThrow(TypeError);
      return 'ok';
    })) as string;
    expect(result).toBe('ok');
    expect(h.fake.callsTo('chat.postMessage').map((c) => c.args.channel)).toEqual(['C5', 'C1']);
  });
});
