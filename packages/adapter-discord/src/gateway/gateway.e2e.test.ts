import { deferred } from '@rt/testing';
import {
  buildButton,
  buildChatInputCommand,
  buildGatewayReaction,
  DISCORD_TEST_IDS,
  FAKE_DM_CHANNEL_ID,
  FAKE_GATEWAY_THREAD_ID,
} from '@rt/testing/discord';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type GatewayHarness,
  handledLog,
  startGatewayHarness,
} from '../test-support/gateway-harness.js';

/** Real connections under a loaded machine: poll for up to 5 s (an upper bound, not a timing). */
const POLL = { timeout: 5000 };

const CHANNEL_MESSAGES = 'POST /channels/:channel/messages' as const;
const CALLBACK = 'POST /interactions/:interaction/:token/callback' as const;
const EDIT_ORIGINAL = 'PATCH /webhooks/:application/:token/messages/:message' as const;
const BOT = DISCORD_TEST_IDS.applicationId;

describe('the gateway with the real discord.js Client against the fake gateway', () => {
  let h: GatewayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('handles a guild mention, a DM and a thread message once each, and their replies reach Discord as replies to them', async () => {
    const log = handledLog();
    h = await startGatewayHarness({
      setup: (runtime) => {
        runtime.onMention(async (ctx) => {
          log.record(ctx.event);
          await ctx.reply('mentioned');
        });
        runtime.onMessage(async (ctx) => {
          log.record(ctx.event);
          await ctx.reply(`echo: ${ctx.event.text}`);
        });
      },
    });
    const mention = h.message({ content: 'hi', mentions: [BOT] });
    const dm = h.message({ content: 'in a dm', where: 'dm' });
    const inThread = h.message({ content: 'in a thread', where: 'thread' });
    const replies = await h.fake.rest.waitForCalls(CHANNEL_MESSAGES, 3);

    expect(log.ids().sort()).toEqual([mention.id, dm.id, inThread.id].sort());
    const byId = new Map(log.events.map((event) => [event.id, event]));
    expect(byId.get(mention.id as string)).toMatchObject({
      kind: 'mention',
      shape: 'message_create',
      tenant: DISCORD_TEST_IDS.guildId,
      channel: DISCORD_TEST_IDS.channelId,
      user: DISCORD_TEST_IDS.userId,
    });
    expect(byId.get(mention.id as string)?.thread).toBeUndefined();
    expect(byId.get(dm.id as string)).toMatchObject({
      kind: 'message',
      tenant: `dm:${BOT}`,
      channel: FAKE_DM_CHANNEL_ID,
      text: 'in a dm',
    });
    expect(byId.get(inThread.id as string)).toMatchObject({
      kind: 'message',
      thread: FAKE_GATEWAY_THREAD_ID,
      channel: DISCORD_TEST_IDS.channelId,
    });
    const replyTo = (id: unknown) =>
      replies.find(
        (call) =>
          (call.body as { message_reference?: { message_id?: string } }).message_reference
            ?.message_id === id,
      );
    expect(replyTo(mention.id)).toMatchObject({
      params: { channel: DISCORD_TEST_IDS.channelId },
      body: { content: 'mentioned' },
    });
    expect(replyTo(dm.id)).toMatchObject({
      params: { channel: FAKE_DM_CHANNEL_ID },
      body: { content: 'echo: in a dm' },
    });
    expect(replyTo(inThread.id)).toMatchObject({
      params: { channel: FAKE_GATEWAY_THREAD_ID },
      body: { content: 'echo: in a thread' },
    });
    await expect.poll(() => h?.runtime.stats().outcomes.completed, POLL).toBe(3);
  });

  it('ignores the bot’s own and other bots’ messages by default, and dispatches other bots’ with botMessages "others"', async () => {
    const log = handledLog();
    h = await startGatewayHarness({
      gateway: { botMessages: 'others' },
      setup: (runtime) => void runtime.onMessage((ctx) => log.record(ctx.event)),
    });
    h.message({ content: 'mine', authorId: BOT, bot: true });
    const other = h.message({ content: 'another bot', authorId: '555000000000000555', bot: true });
    const person = h.message({ content: 'a person' });
    await expect.poll(() => log.ids().length, POLL).toBe(2);
    expect(log.ids().sort()).toEqual([other.id, person.id].sort());
    expect(h.runtime.stats().received).toBe(2);
  });

  it('normalises reactions and routes them by emoji', async () => {
    const seen = deferred<{ text?: string; kind: string; user?: string }>();
    h = await startGatewayHarness({
      setup: (runtime) => void runtime.onReaction('🎉', (ctx) => seen.resolve(ctx.event)),
    });
    h.fake.gateway.dispatch('MESSAGE_REACTION_ADD', buildGatewayReaction({ emoji: '👍' }));
    h.fake.gateway.dispatch('MESSAGE_REACTION_ADD', buildGatewayReaction({ emoji: '🎉' }));
    expect(await seen.promise).toMatchObject({
      kind: 'reaction',
      text: '🎉',
      user: DISCORD_TEST_IDS.userId,
    });
    await expect.poll(() => h?.runtime.stats().received, POLL).toBe(2);
    expect(h.runtime.stats().accepted).toBe(1);
  });

  it('defers a gateway command (type 5) and a component (type 6) by REST callback, and the command’s reply edits @original', async () => {
    const clicked = deferred();
    h = await startGatewayHarness({
      setup: (runtime) => {
        runtime.onCommand('ask', async (ctx) => void (await ctx.reply('answer')));
        runtime.onAction('go', () => clicked.resolve());
      },
    });
    const command = buildChatInputCommand({ name: 'ask' });
    const button = buildButton({ customId: 'go' });
    h.fake.gateway.dispatch('INTERACTION_CREATE', command);
    h.fake.gateway.dispatch('INTERACTION_CREATE', button);
    const callbacks = await h.fake.rest.waitForCalls(CALLBACK, 2);
    const byId = new Map(callbacks.map((call) => [call.params.interaction, call]));
    expect(byId.get(command.id)).toMatchObject({
      params: { token: command.token },
      body: { type: 5 },
    });
    expect(byId.get(button.id)?.body).toEqual({ type: 6 });
    const [edit] = await h.fake.rest.waitForCalls(EDIT_ORIGINAL);
    expect(edit).toMatchObject({ params: { token: command.token, message: '@original' } });
    expect(edit?.body).toMatchObject({ content: 'answer' });
    expect(edit?.at).toBeGreaterThanOrEqual(byId.get(command.id)?.at ?? Number.POSITIVE_INFINITY);
    await clicked.promise;
  });
});

describe('a saturated bound over the gateway', () => {
  let h: GatewayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function saturated(gateway: Parameters<typeof startGatewayHarness>[0] = {}) {
    const release = deferred();
    const started = deferred();
    const log = handledLog();
    h = await startGatewayHarness({
      ...gateway,
      runtime: { maxDetached: 1 },
      setup: (runtime) => {
        runtime.onMention(async (ctx) => {
          log.record(ctx.event);
          started.resolve();
          await release.promise;
        });
        runtime.onCommand('ask', (ctx) => void log.record(ctx.event));
      },
    });
    const first = h.message({ content: 'first', mentions: [BOT] });
    await started.promise;
    return { h, first, log, release };
  }

  it('a mention gets the busy reply to it (mentioning nobody) and is not handled', async () => {
    const { h, first, log, release } = await saturated();
    const second = h.message({ content: 'second', mentions: [BOT] });
    const [busy] = await h.fake.rest.waitForCalls(CHANNEL_MESSAGES);
    expect(busy).toMatchObject({
      params: { channel: DISCORD_TEST_IDS.channelId },
      body: {
        content: 'This app is busy right now. Please try again in a moment.',
        allowed_mentions: { parse: [] },
        message_reference: { message_id: second.id },
      },
    });
    release.resolve();
    await expect.poll(() => h.runtime.stats().outcomes.completed, POLL).toBe(1);
    expect(log.ids()).toEqual([first.id]);
    expect(h.observations.filter((o) => o.type === 'admission_rejected')).toHaveLength(1);
  });

  it('with busySignal "reaction", a mention gets the busy reaction instead', async () => {
    const { h, release } = await saturated({ gateway: { busySignal: 'reaction' } });
    const second = h.message({ content: 'second', mentions: [BOT] });
    const [reaction] = await h.fake.rest.waitForCalls(
      'PUT /channels/:channel/messages/:message/reactions/:emoji/@me',
    );
    expect(reaction?.params).toEqual({
      channel: DISCORD_TEST_IDS.channelId,
      message: second.id,
      emoji: '⏳',
    });
    expect(h.fake.rest.callsTo(CHANNEL_MESSAGES)).toEqual([]);
    release.resolve();
  });

  it('a gateway command gets an ephemeral busy reply (type 4, flags 64) and is not handled', async () => {
    const { h, first, log, release } = await saturated();
    const command = buildChatInputCommand({ name: 'ask' });
    h.fake.gateway.dispatch('INTERACTION_CREATE', command);
    const [callback] = await h.fake.rest.waitForCalls(CALLBACK);
    expect(callback).toMatchObject({
      params: { interaction: command.id, token: command.token },
      body: {
        type: 4,
        data: { content: 'This app is busy right now. Please try again in a moment.', flags: 64 },
      },
    });
    release.resolve();
    await expect.poll(() => h.runtime.stats().outcomes.completed, POLL).toBe(1);
    expect(log.ids()).toEqual([first.id]);
  });

  it('a busy reply that Discord refuses is observed as busy_signal_failed', async () => {
    const { h, release } = await saturated();
    h.fake.rest.fail(CHANNEL_MESSAGES, {
      status: 403,
      code: 50013,
      message: 'Missing Permissions',
    });
    const second = h.message({ content: 'second', mentions: [BOT] });
    await expect.poll(() => h.notices('busy_signal_failed').length, POLL).toBe(1);
    expect(h.notices('busy_signal_failed')[0]).toMatchObject({
      detail: { shape: 'message_create', eventId: second.id, via: 'reply' },
      error: { code: 'RT_DISCORD_CALL', status: 403, discordCode: 50013 },
    });
    release.resolve();
  });
});

describe('reconnects, resumes and outages', () => {
  let h: GatewayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a dropped connection mid-stream: the client resumes, what it missed is delivered, and nothing is handled twice though the replay overlaps', async () => {
    const log = handledLog();
    h = await startGatewayHarness({
      fakeGateway: { resumeReplayOverlap: 3 },
      setup: (runtime) => void runtime.onMessage((ctx) => log.record(ctx.event)),
    });
    const before = [h.message({ content: 'one' }), h.message({ content: 'two' })];
    await expect.poll(() => log.ids().length, POLL).toBe(2);
    h.fake.gateway.dropConnection();
    const missed = h.message({ content: 'sent while disconnected' });
    await h.fake.gateway.waitFor('resume');
    await h.fake.gateway.waitForSession();
    const after = h.message({ content: 'after the resume' });
    await expect.poll(() => log.ids().length, POLL).toBe(4);
    expect(log.ids().sort()).toEqual([...before, missed, after].map((m) => m.id).sort());
    // The overlap replayed the two earlier messages: deduped on their ids, not handled again.
    await expect.poll(() => h?.runtime.stats().outcomes.duplicate, POLL).toBe(2);
    expect(h.fake.gateway.events.filter((e) => e.type === 'identify')).toHaveLength(1);
  });

  it('a gateway that stays down is reported as gateway_disconnected, and gateway_reconnected once it is back', async () => {
    h = await startGatewayHarness({ gateway: { disconnectedAlertMs: 200 } });
    h.fake.gateway.goDown();
    await expect.poll(() => h?.notices('gateway_disconnected').length, POLL).toBe(1);
    expect(h.notices('gateway_disconnected')[0]).toMatchObject({
      detail: { recoverable: true, thresholdMs: 200, shardId: 0 },
    });
    expect(h.notices('gateway_reconnected')).toEqual([]);
    h.fake.gateway.comeBack();
    await expect.poll(() => h?.notices('gateway_reconnected').length, POLL).toBe(1);
    expect(h.notices('gateway_disconnected')).toHaveLength(1);
  });

  it('heartbeats are ACKed: the client keeps one session, with no zombie reconnect', async () => {
    h = await startGatewayHarness({ fakeGateway: { heartbeatIntervalMs: 250 } });
    await h.fake.gateway.waitFor('heartbeat', 3);
    expect(h.fake.gateway.events.filter((e) => e.type === 'identify')).toHaveLength(1);
    expect(h.fake.gateway.events.filter((e) => e.type === 'close' || e.type === 'resume')).toEqual(
      [],
    );
    expect(h.fake.gateway.connected).toBe(true);
  });

  it('a short drop says nothing', async () => {
    h = await startGatewayHarness({ gateway: { disconnectedAlertMs: 60_000 } });
    h.fake.gateway.dropConnection();
    await h.fake.gateway.waitFor('resume');
    await h.fake.gateway.waitForSession();
    expect(h.notices('gateway_disconnected')).toEqual([]);
    expect(h.notices('gateway_reconnected')).toEqual([]);
  });
});

describe('shutdown while messages flow', () => {
  it('in-flight handlers finish within grace, later messages are refused visibly, then the client closes with 1000 and does not reconnect', async () => {
    const release = deferred();
    const started = deferred();
    const finished: string[] = [];
    const h = await startGatewayHarness({
      setup: (runtime) =>
        void runtime.onMessage(async (ctx) => {
          started.resolve();
          await release.promise;
          await ctx.reply('done');
          finished.push(ctx.event.id);
        }),
    });
    try {
      const inFlight = h.message({ content: 'in flight' });
      await started.promise;
      const shutdown = h.runtime.shutdown({ graceMs: 10_000 });
      const late = [h.message({ content: 'late one' }), h.message({ content: 'late two' })];
      const refusals = await h.fake.rest.waitForCalls(CHANNEL_MESSAGES, 2);
      expect(refusals.map((call) => call.body)).toEqual(
        late.map((message) => ({
          content: 'This app is temporarily unavailable. Please try again in a moment.',
          allowed_mentions: { parse: [] },
          message_reference: { message_id: message.id, fail_if_not_exists: false },
        })),
      );
      expect(h.fake.gateway.connected).toBe(true);
      release.resolve();
      await shutdown;

      expect(finished).toEqual([inFlight.id]);
      expect(await h.fake.gateway.waitFor('close')).toEqual([
        { type: 'close', code: 1000, byClient: true },
      ]);
      const client = h.adapter.gatewayClient;
      expect(client?.isReady()).toBe(false);
      expect(client?.token).toBeNull();
      const stats = h.runtime.stats();
      const terminal = Object.values(stats.outcomes).reduce((a, b) => a + b, 0);
      expect(stats.accepted).toBe(1);
      expect(stats.outcomes.completed).toBe(1);
      expect(stats.outcomes['admission-rejected']).toBe(2);
      expect(terminal).toBe(stats.received);
      expect(stats.detachedInFlight).toBe(0);
    } finally {
      release.resolve();
      await h.close();
    }
  });
});

describe('shutdown under a continuous flow of messages', () => {
  it('converges: every message the client received is handled or visibly refused, and every admitted one is terminal', async () => {
    const release = deferred();
    const started = deferred();
    const h = await startGatewayHarness({
      setup: (runtime) =>
        void runtime.onMessage(async (ctx) => {
          started.resolve();
          await release.promise;
          await ctx.reply('done');
        }),
    });
    let flow: ReturnType<typeof setInterval> | undefined;
    try {
      h.message({ content: 'in flight' });
      await started.promise;
      const shutdown = h.runtime.shutdown({ graceMs: 10_000 });
      flow = setInterval(() => h.message({ content: 'flowing' }), 2);
      await h.fake.rest.waitForCalls(CHANNEL_MESSAGES, 5);
      release.resolve();
      await shutdown;
      clearInterval(flow);

      const stats = h.runtime.stats();
      const terminal = Object.values(stats.outcomes).reduce((a, b) => a + b, 0);
      expect(terminal).toBe(stats.received);
      expect(stats.outcomes.completed).toBe(1);
      const refused = stats.outcomes['admission-rejected'];
      expect(refused).toBeGreaterThanOrEqual(4);
      // Each refusal's busy reply went out before shutdown resolved; plus the one handler's reply.
      const replies = h.fake.rest.callsTo(CHANNEL_MESSAGES);
      expect(replies).toHaveLength(refused + 1);
      expect(await h.fake.gateway.waitFor('close')).toEqual([
        { type: 'close', code: 1000, byClient: true },
      ]);
    } finally {
      clearInterval(flow);
      release.resolve();
      await h.close();
    }
  });
});
