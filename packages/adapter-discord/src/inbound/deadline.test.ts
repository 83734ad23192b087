import { createMemoryState } from '@rt/state-memory';
import { deferred, stateWith } from '@rt/testing';
import {
  closeHttpTransports,
  failOnUnhandledRejections,
  HTTP_TRANSPORTS,
} from '@rt/testing/adapter';
import { buildAutocomplete, buildChatInputCommand } from '@rt/testing/discord';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { BUSY_CHOICE_VALUE } from '../respond/busy-choice.js';
import { modalResponse } from '../respond/handler-answers.js';
import { type Harness, startHarness } from '../test-support/harness.js';

const EDIT_ORIGINAL = 'PATCH /webhooks/:application/:token/messages/:message' as const;

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('answering within Discord’s 3 s whatever the handler does', () => {
    failOnUnhandledRejections();
    let h: Harness;

    afterEach(async () => {
      vi.useRealTimers();
      await h.close();
    });

    it('a handler that takes 10 s: the interaction is answered before it starts waiting out, and its reply reaches Discord afterwards (no 10062)', async () => {
      h = await startHarness({ transport, adapter: { clock: () => Date.now() } });
      // The adapter's clock reads the global (faked) Date on each call; its default, `Date.now` taken
      // when the adapter is built, would stay real and let real time move the deadlines.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const t0 = Date.now();
      const waiting = deferred();
      const finished = deferred<number>();
      h.runtime.onCommand('slow', async (ctx) => {
        const wait = new Promise((resolve) => setTimeout(resolve, 10_000));
        waiting.resolve();
        await wait;
        const waitedUntil = Date.now();
        await ctx.reply('all done');
        finished.resolve(waitedUntil);
      });
      const payload = buildChatInputCommand({ name: 'slow' });
      const response = await h.send(payload);
      // Answered with no (fake) time passed at all: long before the ack deadline, and before the
      // handler's 10 s are up.
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ type: 5 });
      expect(Date.now()).toBe(t0);
      await waiting.promise;
      expect(h.fake.calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(10_000);
      vi.useRealTimers();
      const [edit] = await h.fake.waitForCalls(EDIT_ORIGINAL);
      expect(edit).toMatchObject({
        params: { token: payload.token, message: '@original' },
        body: { content: 'all done' },
      });
      expect((await finished.promise) - t0).toBe(10_000);
      expect(h.notices('ack_deadline_passed')).toEqual([]);
      await expect.poll(() => h.runtime.stats().outcomes.completed).toBe(1);
    });

    it('a sync autocomplete handler that ignores its signal: the busy choice goes out at ackDeadlineMs, with a notice, and nothing follows', async () => {
      h = await startHarness({
        transport,
        adapter: { clock: () => Date.now(), unavailableText: 'Down.' },
      });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const t0 = Date.now();
      const release = deferred();
      const entered = deferred();
      h.runtime.onSuggestion('topic', async () => {
        entered.resolve();
        await release.promise;
        return [{ name: 'too late', value: 'late' }];
      });
      let answered: Response | undefined;
      const answering = h.send(buildAutocomplete()).then((response) => {
        answered = response;
      });
      // Arrival and dispatch take no fake time: the deadline counts from arrival.
      await entered.promise;
      await vi.advanceTimersByTimeAsync(2499);
      expect(answered).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await answering;
      expect(Date.now() - t0).toBe(2500);
      expect(await answered?.json()).toEqual({
        type: 8,
        data: { choices: [{ name: 'Down.', value: BUSY_CHOICE_VALUE }] },
      });
      expect(h.notices('ack_deadline_passed')).toHaveLength(1);
      vi.useRealTimers();
      release.resolve();
      await expect.poll(() => h.runtime.stats().syncInFlight).toBe(0);
      expect(h.fake.calls).toEqual([]);
    });

    it('a State slow to mark a deferred command: unavailable at the deadline, and the late-accepted handler’s reply is a follow-up, never a second answer', async () => {
      const marking = deferred();
      const markCalled = deferred();
      const state = stateWith(createMemoryState(), (inner) => ({
        markEvent: async (key, ttlMs) => {
          markCalled.resolve();
          await marking.promise;
          return inner.markEvent(key, ttlMs);
        },
      }));
      h = await startHarness({
        transport,
        state,
        adapter: { clock: () => Date.now(), unavailableText: 'Down.' },
      });
      const replied = deferred();
      h.runtime.onCommand('ask', async (ctx) => {
        await ctx.reply('late but handled');
        replied.resolve();
      });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const answering = h.send(buildChatInputCommand({ name: 'ask' }));
      await markCalled.promise;
      await vi.advanceTimersByTimeAsync(2500);
      const response = await answering;
      expect(await response.json()).toEqual({
        type: 4,
        data: { content: 'Down.', flags: 64, allowed_mentions: { parse: [] } },
      });
      expect(h.notices('ack_deadline_passed')).toHaveLength(1);
      vi.useRealTimers();
      marking.resolve();
      await replied.promise;
      expect(h.fake.callsTo(EDIT_ORIGINAL)).toEqual([]);
      expect(h.fake.callsTo('POST /webhooks/:application/:token').map((c) => c.body)).toEqual([
        { content: 'late but handled', allowed_mentions: { parse: ['users'] } },
      ]);
    });

    it('a clock skewed a minute behind moves no deadline: the ack deadline counts on that same clock', async () => {
      const marking = deferred();
      const markCalled = deferred();
      const state = stateWith(createMemoryState(), (inner) => ({
        markEvent: async (key, ttlMs) => {
          markCalled.resolve();
          await marking.promise;
          return inner.markEvent(key, ttlMs);
        },
      }));
      h = await startHarness({
        transport,
        state,
        adapter: { clock: () => Date.now() - 60_000, unavailableText: 'Down.' },
      });
      h.runtime.onCommand('ask', () => {});
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      let answered: Response | undefined;
      const answering = h.send(buildChatInputCommand({ name: 'ask' })).then((response) => {
        answered = response;
      });
      await markCalled.promise;
      await vi.advanceTimersByTimeAsync(2499);
      expect(answered).toBeUndefined();
      marking.resolve();
      await answering;
      expect(await answered?.json()).toEqual({ type: 5 });
      expect(h.notices('ack_deadline_passed')).toEqual([]);
      vi.useRealTimers();
    });

    it('a sync command handler opens a modal (type 9); ctx.reply there is refused, since the answer is still pending', async () => {
      h = await startHarness({
        transport,
        adapter: { dispatchModes: { application_command: 'sync' } },
      });
      const refused = deferred<unknown>();
      h.runtime.onCommand('report', async (ctx) => {
        refused.resolve(await ctx.reply('too early').catch((error: unknown) => error));
        return modalResponse({ custom_id: 'report', title: 'Report', components: [] });
      });
      const response = await h.send(buildChatInputCommand({ name: 'report' }));
      expect(await response.json()).toEqual({
        type: 9,
        data: { custom_id: 'report', title: 'Report', components: [] },
      });
      expect(await refused.promise).toMatchObject({ code: 'RT_DISCORD_NO_TARGET' });
      expect(h.fake.calls).toEqual([]);
    });

    it('syncCommands makes one command sync among deferred ones', async () => {
      h = await startHarness({ transport, adapter: { syncCommands: ['/feedback'] } });
      h.runtime.onCommand('feedback', () =>
        modalResponse({ custom_id: 'feedback', title: 'Feedback', components: [] }),
      );
      h.runtime.onCommand('ask', () => 'ignored: deferred handlers do not answer');
      expect(
        await (await h.send(buildChatInputCommand({ name: 'feedback' }))).json(),
      ).toMatchObject({
        type: 9,
      });
      expect(await (await h.send(buildChatInputCommand({ name: 'ask' }))).json()).toEqual({
        type: 5,
      });
    });

    it('a sync command handler that returns text answers type 4 with it', async () => {
      h = await startHarness({
        transport,
        adapter: { dispatchModes: { application_command: 'sync' }, ephemeral: true },
      });
      h.runtime.onCommand('ping', () => 'pong');
      expect(await (await h.send(buildChatInputCommand({ name: 'ping' }))).json()).toEqual({
        type: 4,
        data: { content: 'pong', flags: 64 },
      });
    });

    it('a sync command handler that throws is answered unavailable, never as a success', async () => {
      h = await startHarness({
        transport,
        adapter: { dispatchModes: { application_command: 'sync' }, unavailableText: 'Down.' },
      });
      h.runtime.onCommand('boom', () => {
        throw new Error('bug');
      });
      expect(await (await h.send(buildChatInputCommand({ name: 'boom' }))).json()).toEqual({
        type: 4,
        data: { content: 'Down.', flags: 64, allowed_mentions: { parse: [] } },
      });
    });
  });
});
