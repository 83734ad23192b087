import { deferred } from '@rt/testing';
import {
  buildChatInputCommand,
  DISCORD_TEST_IDS,
  FAKE_GATEWAY_THREAD_ID,
} from '@rt/testing/discord';
import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayHarness, startGatewayHarness } from '../test-support/gateway-harness.js';

/** Real connections under a loaded machine: poll for up to 5 s (an upper bound, not a timing). */
const POLL = { timeout: 5000 };

const CHANNEL_MESSAGES = 'POST /channels/:channel/messages' as const;
const CALLBACK = 'POST /interactions/:interaction/:token/callback' as const;

describe('gateway answers when something goes wrong', () => {
  let h: GatewayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a message accepted and then dropped on its busy thread (drop strategy) gets the busy reply after the fact', async () => {
    const release = deferred();
    const started = deferred();
    let ran = 0;
    h = await startGatewayHarness({
      runtime: { concurrency: 'drop' },
      setup: (runtime) =>
        void runtime.onMessage(async () => {
          ran += 1;
          started.resolve();
          await release.promise;
        }),
    });
    h.message({ content: 'first', where: 'thread' });
    await started.promise;
    const second = h.message({ content: 'second', where: 'thread' });
    const [busy] = await h.fake.rest.waitForCalls(CHANNEL_MESSAGES);
    expect(busy?.body).toMatchObject({
      content: 'This app is busy right now. Please try again in a moment.',
      message_reference: { message_id: second.id },
    });
    expect(h.runtime.stats().outcomes.dropped).toBe(1);
    release.resolve();
    await expect.poll(() => h?.runtime.stats().outcomes.completed, POLL).toBe(1);
    expect(ran).toBe(1);
  });

  it('an interaction callback Discord refuses is observed as interaction_callback_failed', async () => {
    h = await startGatewayHarness({
      setup: (runtime) => void runtime.onCommand('ask', () => undefined),
    });
    h.fake.rest.fail(CALLBACK, { status: 404, code: 10062, message: 'Unknown interaction' });
    const command = buildChatInputCommand({ name: 'ask' });
    h.fake.gateway.dispatch('INTERACTION_CREATE', command);
    await expect.poll(() => h?.notices('interaction_callback_failed').length, POLL).toBe(1);
    expect(h.notices('interaction_callback_failed')[0]).toMatchObject({
      detail: { shape: 'application_command', eventId: command.id, callbackType: 5 },
      error: { code: 'RT_DISCORD_CALL', status: 404, discordCode: 10062 },
    });
  });

  it('an INTERACTION_CREATE without a token is ignored with a gateway_payload_ignored notice, nothing dispatched', async () => {
    h = await startGatewayHarness({
      setup: (runtime) => void runtime.onCommand('ask', () => undefined),
    });
    const { token: _token, ...broken } = buildChatInputCommand({ name: 'ask' });
    h.fake.gateway.dispatch('INTERACTION_CREATE', broken);
    await expect.poll(() => h?.notices('gateway_payload_ignored').length, POLL).toBe(1);
    expect(h.notices('gateway_payload_ignored')[0]).toMatchObject({
      detail: {
        dispatch: 'INTERACTION_CREATE',
        reason: 'application_command interaction has no token',
      },
    });
    expect(h.runtime.stats().received).toBe(0);
    expect(h.fake.rest.callsTo(CALLBACK)).toEqual([]);
  });

  it('a reply to a message uses the message’s own channel and thread; readHistory reads that thread', async () => {
    const history = deferred<string[]>();
    h = await startGatewayHarness({
      setup: (runtime) =>
        void runtime.onMessage(async (ctx) => {
          const adapter = h?.adapter;
          const messages = (await adapter?.readHistory(ctx.event, { limit: 5 })) ?? [];
          history.resolve(messages.map((m) => m.text));
        }),
    });
    h.fake.rest.seedMessages(FAKE_GATEWAY_THREAD_ID, [
      {
        id: '1',
        content: 'earlier in the thread',
        author: { id: DISCORD_TEST_IDS.userId },
        timestamp: new Date(0).toISOString(),
      },
    ]);
    h.message({ content: 'now', where: 'thread' });
    expect(await history.promise).toEqual(['earlier in the thread']);
  });
});
