import { deferred } from '@rt/testing';
import {
  closeHttpTransports,
  failOnUnhandledRejections,
  HTTP_TRANSPORTS,
} from '@rt/testing/adapter';
import { buildButton, buildChatInputCommand } from '@rt/testing/discord';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';

const EDIT_ORIGINAL = 'PATCH /webhooks/:application/:token/messages/:message' as const;
const FOLLOW_UP = 'POST /webhooks/:application/:token' as const;
const BUSY = 'Busy, try again.';
/** Both interactions happen in the same thread, so they share a lock under thread scope. */
const inThread = { channelId: '888', channelType: 11, parentId: '777' } as const;

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('an acknowledged interaction dropped before its handler ran (drop strategy, lock held)', () => {
    failOnUnhandledRejections();
    let h: Harness;
    let gate = deferred();

    afterEach(async () => {
      gate.resolve();
      await h.close();
    });

    async function start(options: Parameters<typeof startHarness>[0] = {}): Promise<void> {
      gate = deferred();
      h = await startHarness({
        transport,
        ...options,
        runtime: { concurrency: 'drop', ...options.runtime },
        adapter: { busyText: BUSY, ...options.adapter },
      });
      h.runtime.on(
        () => true,
        async (ctx) => {
          if (ctx.event.command === 'hold') await gate.promise;
        },
      );
      expect(
        await (await h.send(buildChatInputCommand({ name: 'hold', ...inThread }))).json(),
      ).toEqual({
        type: 5,
      });
    }

    it('a command: its "thinking…" message is replaced by the busy text', async () => {
      await start();
      const payload = buildChatInputCommand({ name: 'ask', ...inThread });
      expect(await (await h.send(payload)).json()).toEqual({ type: 5 });
      const [edit] = await h.fake.waitForCalls(EDIT_ORIGINAL);
      expect(edit).toMatchObject({
        params: { token: payload.token, message: '@original' },
        body: { content: BUSY, allowed_mentions: { parse: [] } },
      });
      expect(h.observations).toContainEqual(
        expect.objectContaining({ type: 'dispatch_finished', outcome: 'dropped' }),
      );
    });

    it('dropped before its answer was even sent: the busy edit waits for the answer and still replaces "thinking…"', async () => {
      await start();
      const response = await h.send(buildChatInputCommand({ name: 'ask', ...inThread }));
      await expect
        .poll(() =>
          h.observations.some((o) => o.type === 'dispatch_finished' && o.outcome === 'dropped'),
        )
        .toBe(true);
      expect(h.fake.calls).toEqual([]);
      expect(await response.json()).toEqual({ type: 5 });
      const [edit] = await h.fake.waitForCalls(EDIT_ORIGINAL);
      expect(edit?.body).toEqual({ content: BUSY, allowed_mentions: { parse: [] } });
      expect(h.fake.callsTo(FOLLOW_UP)).toEqual([]);
    });

    it('a component: an ephemeral follow-up carries the busy text', async () => {
      await start();
      const payload = buildButton(inThread);
      expect(await (await h.send(payload)).json()).toEqual({ type: 6 });
      const [followUp] = await h.fake.waitForCalls(FOLLOW_UP);
      expect(followUp).toMatchObject({
        params: { token: payload.token },
        body: { content: BUSY, flags: 64, allowed_mentions: { parse: [] } },
      });
    });

    it('a failing busy signal (interaction gone) is an observable busy_signal_failed notice', async () => {
      await start();
      h.fake.fail(EDIT_ORIGINAL, { status: 404, code: 10015, message: 'Unknown Webhook' });
      await (await h.send(buildChatInputCommand({ name: 'ask', ...inThread }))).json();
      await h.fake.waitForCalls(EDIT_ORIGINAL);
      await h.adapter.drain();
      expect(h.notices('busy_signal_failed')).toEqual([
        expect.objectContaining({
          detail: expect.objectContaining({ via: 'edit_original', shape: 'application_command' }),
          error: expect.objectContaining({
            code: 'RT_DISCORD_CALL',
            status: 404,
            discordCode: 10015,
          }),
        }),
      ]);
    });

    it('a busy signal that hangs is given up at busySignalTimeoutMs, and stop() does not wait longer', async () => {
      await start({ adapter: { busySignalTimeoutMs: 50 } });
      h.fake.hang(EDIT_ORIGINAL);
      await (await h.send(buildChatInputCommand({ name: 'ask', ...inThread }))).json();
      await h.fake.waitForCalls(EDIT_ORIGINAL);
      await h.adapter.stop();
      const [failed] = h.notices('busy_signal_failed');
      expect((failed as { error: Error }).error.name).toBe('TimeoutError');
    });
  });
});
