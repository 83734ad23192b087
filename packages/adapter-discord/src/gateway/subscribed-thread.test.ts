import { NotInThreadError, type RtEvent } from '@rt/core';
import { failOnUnhandledRejections } from '@rt/testing/adapter';
import { buildGatewayMessage, DISCORD_TEST_IDS, FAKE_GATEWAY_THREAD_ID } from '@rt/testing/discord';
import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayHarness, startGatewayHarness } from '../test-support/gateway-harness.js';

/** Real connections under a loaded machine: poll for up to 5 s (an upper bound, not a timing). */
const POLL = { timeout: 5000 };
const BOT = DISCORD_TEST_IDS.applicationId;
const THREAD_KEY = `discord:${DISCORD_TEST_IDS.guildId}:${DISCORD_TEST_IDS.channelId}:${FAKE_GATEWAY_THREAD_ID}`;

describe('a subscribed Discord thread, through the real discord.js Client and the fake gateway', () => {
  failOnUnhandledRejections();
  let h: GatewayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /** A bot that subscribes a thread at a mention and records which handler saw what. */
  async function start() {
    const runs: string[] = [];
    const errors: unknown[] = [];
    const record = (kind: string) => (ctx: { event: RtEvent }) =>
      void runs.push(`${kind}:${ctx.event.text?.replace(/<@\d+> /, '')}`);
    h = await startGatewayHarness({
      setup: (runtime) => {
        runtime.onMention(async (ctx) => {
          record('mention')(ctx);
          // "briefly" subscribes for 200 ms, anything else for a minute: only expiry is timed.
          const ttlMs = ctx.event.text?.includes('briefly') ? 200 : 60_000;
          await ctx.thread.subscribe({ ttlMs }).catch((e) => errors.push(e));
        });
        runtime.onMessage(record('message'));
        runtime.onSubscribedMessage(async (ctx) => {
          record('subscribed')(ctx);
          if (ctx.event.text === 'stop') await ctx.thread.unsubscribe();
        });
      },
    });
    const finished = (count: number) =>
      expect
        .poll(() => h?.observations.filter((o) => o.type === 'dispatch_finished').length, POLL)
        .toBeGreaterThanOrEqual(count);
    const isSubscribed = () =>
      (h!.state as unknown as { isSubscribed(key: string): Promise<boolean> }).isSubscribed(
        THREAD_KEY,
      );
    return { h, runs, errors, finished, isSubscribed };
  }

  it('routes plain thread messages there after a mention subscribed the thread; a mention stays on onMention', async () => {
    const { h, runs, finished } = await start();
    h.message({ content: 'follow this', mentions: [BOT], where: 'thread' });
    await finished(1);
    h.message({ content: 'one', where: 'thread' });
    await finished(2);
    h.message({ content: 'again', mentions: [BOT], where: 'thread' });
    await finished(3);
    h.message({ content: 'outside', where: 'channel' });
    await finished(4);
    expect(runs).toEqual([
      'mention:follow this',
      'subscribed:one',
      'mention:again',
      'message:outside',
    ]);
  });

  it('goes back to onMessage after unsubscribe and after the TTL', async () => {
    const { h, runs, finished } = await start();
    h.message({ content: 'follow', mentions: [BOT], where: 'thread' });
    await finished(1);
    h.message({ content: 'stop', where: 'thread' });
    await finished(2);
    h.message({ content: 'after stop', where: 'thread' });
    await finished(3);
    h.message({ content: 'follow again briefly', mentions: [BOT], where: 'thread' });
    await finished(4);
    await new Promise((resolve) => setTimeout(resolve, 700));
    h.message({ content: 'after ttl', where: 'thread' });
    await finished(5);
    expect(runs).toEqual([
      'mention:follow',
      'subscribed:stop',
      'message:after stop',
      'mention:follow again briefly',
      'message:after ttl',
    ]);
  });

  it.each([
    ['THREAD_UPDATE archived', 'THREAD_UPDATE'],
    ['THREAD_DELETE', 'THREAD_DELETE'],
  ] as const)('ends the subscription on %s', async (_, dispatch) => {
    const { h, runs, finished, isSubscribed } = await start();
    h.message({ content: 'follow', mentions: [BOT], where: 'thread' });
    await finished(1);
    expect(await isSubscribed()).toBe(true);
    // A THREAD_UPDATE that does not archive changes nothing.
    h.fake.gateway.dispatch('THREAD_UPDATE', threadPayload(false, '2026-01-01T00:00:00.000Z'));
    h.message({ content: 'still', where: 'thread' });
    await finished(2);
    expect(await isSubscribed()).toBe(true);
    h.fake.gateway.dispatch(dispatch, threadPayload(true, '2026-01-02T00:00:00.000Z'));
    await expect.poll(isSubscribed, POLL).toBe(false);
    h.message({ content: 'after end', where: 'thread' });
    await expect.poll(() => runs.length, POLL).toBe(3);
    expect(runs).toEqual(['mention:follow', 'subscribed:still', 'message:after end']);
  });

  it('has no thread for a reply in a plain channel: it stays on onMessage and cannot subscribe', async () => {
    const { h, runs, errors, finished } = await start();
    const reply = buildGatewayMessage({ content: 'a reply', mentions: [BOT], where: 'channel' });
    h.fake.gateway.dispatch('MESSAGE_CREATE', {
      ...reply,
      type: 19,
      message_reference: {
        message_id: '330000000000000033',
        channel_id: DISCORD_TEST_IDS.channelId,
      },
    });
    await finished(1);
    h.message({ content: 'plain', where: 'channel' });
    await finished(2);
    expect(runs).toEqual(['mention:a reply', 'message:plain']);
    expect(errors).toEqual([expect.any(NotInThreadError)]);
  });
});

function threadPayload(archived: boolean, archiveTimestamp: string): Record<string, unknown> {
  return {
    id: FAKE_GATEWAY_THREAD_ID,
    type: 11,
    guild_id: DISCORD_TEST_IDS.guildId,
    parent_id: DISCORD_TEST_IDS.channelId,
    name: 'a thread',
    owner_id: DISCORD_TEST_IDS.userId,
    thread_metadata: {
      archived,
      auto_archive_duration: 1440,
      archive_timestamp: archiveTimestamp,
      locked: false,
    },
  };
}
