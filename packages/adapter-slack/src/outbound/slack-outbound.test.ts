import type { RtEvent } from '@rt/core';
import { fakeRuntimeHandle } from '@rt/testing/adapter';
import {
  buildAppMentionEvent,
  buildBlockActions,
  buildMessageEvent,
  buildShortcut,
  buildSlashCommand,
  createSlackSigner,
  type FakeSlackApi,
  type SlackTestPayload,
  startFakeSlackApi,
} from '@rt/testing/slack';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SlackInstallation } from '../normalize/installation.js';
import { createSlackAdapter, type SlackAdapter } from '../slack-adapter.js';
import { SECRET } from '../test-support/harness.js';

/** Runs `payload` through an adapter and returns the event it dispatched. */
const runtimes = new WeakMap<SlackAdapter, ReturnType<typeof fakeRuntimeHandle>>();

async function eventOf(adapter: SlackAdapter, payload: SlackTestPayload): Promise<RtEvent> {
  let runtime = runtimes.get(adapter);
  if (runtime === undefined) {
    runtime = fakeRuntimeHandle();
    runtimes.set(adapter, runtime);
    adapter.attach(runtime);
  }
  await adapter.handler(createSlackSigner(SECRET).request(payload));
  const event = runtime.dispatched.at(-1);
  if (event === undefined) throw new Error('nothing dispatched');
  return event;
}

describe('outbound calls', () => {
  let fake: FakeSlackApi;
  let adapter: SlackAdapter;
  beforeEach(async () => {
    fake = await startFakeSlackApi();
    adapter = createSlackAdapter({
      signingSecret: SECRET,
      botToken: 'xoxb-single',
      apiUrl: fake.url,
      webClientOptions: { retryConfig: { retries: 0 } },
    });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('reply posts in the thread of a top-level message (thread_ts = its ts)', async () => {
    const event = await eventOf(adapter, buildMessageEvent({ ts: '111.222', channel: 'C9' }));
    const posted = await adapter.reply(event, {
      text: 'hi',
      extra: { blocks: [{ type: 'divider' }] },
    });
    const [call] = fake.callsTo('chat.postMessage');
    expect(call?.token).toBe('xoxb-single');
    expect(call?.args).toMatchObject({
      channel: 'C9',
      thread_ts: '111.222',
      text: 'hi',
      blocks: [{ type: 'divider' }],
    });
    expect(posted).toEqual({ channel: 'C9', id: expect.any(String), thread: '111.222' });
  });

  it('reply stays in an existing thread', async () => {
    const event = await eventOf(adapter, buildAppMentionEvent({ ts: '5.6', threadTs: '1.2' }));
    await adapter.reply(event, 'in thread');
    expect(fake.callsTo('chat.postMessage')[0]?.args).toMatchObject({ thread_ts: '1.2' });
  });

  it('reply to a slash command posts in its channel', async () => {
    const event = await eventOf(adapter, buildSlashCommand({ channelId: 'C7' }));
    await adapter.reply(event, 'done');
    const args = fake.callsTo('chat.postMessage')[0]?.args;
    expect(args).toMatchObject({ channel: 'C7', text: 'done' });
    expect(args).not.toHaveProperty('thread_ts');
  });

  it('post, update, react and postEphemeral call their methods', async () => {
    const event = await eventOf(
      adapter,
      buildMessageEvent({ ts: '10.1', channel: 'C1', user: 'U5' }),
    );
    const posted = await adapter.post(event, 'to the channel');
    await adapter.update(event, { channel: posted.channel, ts: posted.id }, 'edited');
    await adapter.react(event, 'eyes');
    await adapter.postEphemeral(event, 'psst');
    expect(fake.calls.map((call) => call.method)).toEqual([
      'chat.postMessage',
      'chat.update',
      'reactions.add',
      'chat.postEphemeral',
    ]);
    expect(fake.callsTo('chat.postMessage')[0]?.args).not.toHaveProperty('thread_ts');
    expect(fake.callsTo('chat.update')[0]?.args).toMatchObject({
      channel: 'C1',
      ts: posted.id,
      text: 'edited',
    });
    expect(fake.callsTo('reactions.add')[0]?.args).toMatchObject({
      channel: 'C1',
      timestamp: '10.1',
      name: 'eyes',
    });
    expect(fake.callsTo('chat.postEphemeral')[0]?.args).toMatchObject({
      channel: 'C1',
      user: 'U5',
      text: 'psst',
    });
  });

  it('respond posts to the interaction response_url', async () => {
    const event = await eventOf(adapter, buildBlockActions({ responseUrl: fake.responseUrl() }));
    await adapter.respond(event, 'only you see this');
    await adapter.respond(
      event,
      { text: 'everyone' },
      { responseType: 'in_channel', replaceOriginal: true },
    );
    expect(fake.callsTo('response_url').map((call) => call.args)).toEqual([
      { text: 'only you see this', response_type: 'ephemeral', replace_original: false },
      { text: 'everyone', response_type: 'in_channel', replace_original: true },
    ]);
  });

  it('respond rejects with a coded error when the response_url fails', async () => {
    fake.fail('response_url', { status: 404, error: 'expired_url' });
    const event = await eventOf(adapter, buildSlashCommand({ responseUrl: fake.responseUrl() }));
    await expect(adapter.respond(event, 'late')).rejects.toMatchObject({
      code: 'RT_SLACK_CALL',
      status: 404,
    });
  });

  it('opens, pushes and updates views', async () => {
    const view = {
      type: 'modal' as const,
      title: { type: 'plain_text' as const, text: 'T' },
      blocks: [],
    };
    const shortcut = await eventOf(adapter, buildShortcut({ triggerId: 'trig-1' }));
    const opened = await adapter.openView(shortcut, view);
    const inModal = await eventOf(
      adapter,
      buildBlockActions({ from: 'modal', triggerId: 'trig-2' }),
    );
    await adapter.pushView(inModal, view);
    await adapter.updateView(inModal, view, { hash: 'h1' });
    expect(opened).toMatch(/^VFAKE/);
    expect(fake.callsTo('views.open')[0]?.args).toMatchObject({ trigger_id: 'trig-1', view });
    expect(fake.callsTo('views.push')[0]?.args).toMatchObject({ trigger_id: 'trig-2' });
    const modalId = (inModal.payload as { view: { id: string } }).view.id;
    expect(fake.callsTo('views.update')[0]?.args).toMatchObject({ view_id: modalId, hash: 'h1' });
  });

  it('surfaces Web API errors to the handler', async () => {
    fake.fail('chat.postMessage', { error: 'channel_not_found' });
    const event = await eventOf(adapter, buildMessageEvent());
    await expect(adapter.reply(event, 'x')).rejects.toMatchObject({
      code: 'slack_webapi_platform_error',
      data: expect.objectContaining({ error: 'channel_not_found' }),
    });
  });

  it('refuses calls without a target with SlackTargetError', async () => {
    const event = await eventOf(adapter, buildShortcut());
    await expect(adapter.reply(event, 'x')).rejects.toMatchObject({ code: 'RT_SLACK_NO_TARGET' });
    await expect(adapter.respond(event, 'x')).rejects.toMatchObject({ code: 'RT_SLACK_NO_TARGET' });
    expect(fake.calls).toEqual([]);
  });
});

describe('readHistory', () => {
  let fake: FakeSlackApi;
  afterEach(async () => {
    await fake.close();
  });

  it('reads the thread through conversations.replies, oldest first, across pages', async () => {
    fake = await startFakeSlackApi();
    const adapter = createSlackAdapter({
      signingSecret: SECRET,
      botToken: 'xoxb-h',
      apiUrl: fake.url,
      webClientOptions: { retryConfig: { retries: 0 } },
    });
    fake.seedReplies('C1', '100.000001', [
      { ts: '100.000001', user: 'U1', text: 'question' },
      { ts: '101.000001', bot_id: 'B0BOT', text: 'answer' },
      { ts: '102.000001', user: 'U1', text: 'thanks' },
    ]);
    const event = await eventOf(
      adapter,
      buildMessageEvent({ channel: 'C1', ts: '102.000001', threadTs: '100.000001' }),
    );
    const history = await adapter.readHistory(event, { limit: 3 });
    expect(history).toEqual([
      { id: '100.000001', user: 'U1', text: 'question', at: 100_000, fromBot: false },
      { id: '101.000001', text: 'answer', at: 101_000, fromBot: true },
      { id: '102.000001', user: 'U1', text: 'thanks', at: 102_000, fromBot: false },
    ]);
    expect(fake.callsTo('conversations.replies')[0]?.args).toMatchObject({
      channel: 'C1',
      ts: '100.000001',
    });
    const paged = createSlackAdapter({
      signingSecret: SECRET,
      botToken: 'xoxb-h',
      apiUrl: fake.url,
      historyLimit: 2,
      webClientOptions: { retryConfig: { retries: 0 } },
    });
    expect((await paged.readHistory(event)).map((m) => m.text)).toEqual(['question', 'answer']);
  });

  it('rejects with the signal reason when aborted before reading', async () => {
    fake = await startFakeSlackApi();
    const adapter = createSlackAdapter({ signingSecret: SECRET, botToken: 'x', apiUrl: fake.url });
    const event = await eventOf(adapter, buildMessageEvent());
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(adapter.readHistory(event, { signal: controller.signal })).rejects.toThrow('stop');
    expect(fake.calls).toEqual([]);
  });
});

describe('multi-workspace tokens', () => {
  let fake: FakeSlackApi;
  afterEach(async () => {
    await fake.close();
  });

  it('resolves the token per installation and keys org-wide installs on the enterprise', async () => {
    fake = await startFakeSlackApi();
    const seen: SlackInstallation[] = [];
    const adapter = createSlackAdapter({
      signingSecret: SECRET,
      apiUrl: fake.url,
      webClientOptions: { retryConfig: { retries: 0 } },
      tokenResolver: async (installation) => {
        seen.push(installation);
        return installation.isEnterpriseInstall
          ? `xoxb-org-${installation.enterpriseId}`
          : `xoxb-team-${installation.teamId}`;
      },
    });
    const a = await eventOf(adapter, buildMessageEvent({ teamId: 'TA' }));
    const org = await eventOf(
      adapter,
      buildMessageEvent({ teamId: 'TB', enterpriseId: 'E1', isEnterpriseInstall: true }),
    );
    expect(a.tenant).toBe('TA');
    expect(org.tenant).toBe('E1');
    await adapter.reply(a, 'a');
    await adapter.reply(org, 'org');
    expect(fake.callsTo('chat.postMessage').map((call) => call.token)).toEqual([
      'xoxb-team-TA',
      'xoxb-org-E1',
    ]);
    expect(seen[1]).toEqual({ teamId: 'TB', enterpriseId: 'E1', isEnterpriseInstall: true });
  });

  it('wraps resolver failures in SlackTokenError', async () => {
    fake = await startFakeSlackApi();
    const adapter = createSlackAdapter({
      signingSecret: SECRET,
      apiUrl: fake.url,
      tokenResolver: () => {
        throw new Error('vault down');
      },
    });
    const event = await eventOf(adapter, buildMessageEvent());
    await expect(adapter.reply(event, 'x')).rejects.toMatchObject({
      code: 'RT_SLACK_TOKEN',
      cause: expect.objectContaining({ message: 'vault down' }),
    });
  });

  it('refuses both or neither token source at construction', () => {
    expect(() => createSlackAdapter({ signingSecret: SECRET })).toThrow(/botToken/);
    expect(() =>
      createSlackAdapter({ signingSecret: SECRET, botToken: 'x', tokenResolver: () => 'y' }),
    ).toThrow(/either/);
  });
});
