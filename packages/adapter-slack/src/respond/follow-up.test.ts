import { createMemoryState } from '@rt/state-memory';
import { deferred, stateWith } from '@rt/testing';
import { closeHttpTransports, HTTP_TRANSPORTS } from '@rt/testing/adapter';
import { buildBlockActions, buildMessageEvent, buildShortcut } from '@rt/testing/slack';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('busy-signal follow-ups', () => {
    let h: Harness;
    let gate = deferred();
    afterEach(async () => {
      vi.useRealTimers();
      gate.resolve();
      await h.close();
    });

    async function saturate(options: Parameters<typeof startHarness>[0] = {}): Promise<void> {
      h = await startHarness({
        transport,
        ...options,
        runtime: { maxDetached: 1, ...options.runtime },
      });
      gate = deferred();
      h.runtime.on(
        () => true,
        async (ctx) => {
          if (ctx.event.text === 'hold') await gate.promise;
        },
      );
      expect((await h.send(buildMessageEvent({ text: 'hold' }))).status).toBe(200);
    }

    it('acknowledges before the follow-up call completes', async () => {
      await saturate({ adapter: { busySignalTimeoutMs: 60_000 } });
      h.fake.hang('views.open');
      const response = await h.send(buildShortcut());
      expect(response.status).toBe(200);
      await h.fake.waitForCalls('views.open');
      // The call is still hanging; dropping the fake's connections ends it as a failure.
      await h.fake.close();
      await h.adapter.drainFollowUps();
      expect(h.observations).toContainEqual(
        expect.objectContaining({ type: 'adapter_notice', name: 'busy_signal_failed' }),
      );
    });

    it('aborts a follow-up that outlives its budget and reports it as an adapter_notice', async () => {
      await saturate({ adapter: { busySignalTimeoutMs: 50 } });
      h.fake.hang('views.open');
      expect((await h.send(buildShortcut())).status).toBe(200);
      await h.adapter.drainFollowUps();
      const notice = h.observations.find(
        (o) => o.type === 'adapter_notice' && o.name === 'busy_signal_failed',
      );
      expect(notice).toMatchObject({
        adapter: 'slack',
        detail: { shape: 'shortcut', via: 'views.open' },
        error: expect.objectContaining({ code: 'RT_SLACK_CALL' }),
      });
      const cause = (notice as { error: { cause: unknown } }).error.cause;
      expect((cause as Error).name).toBe('TimeoutError');
    });

    it('reports a Web API refusal of the busy view (expired trigger) as an adapter_notice', async () => {
      await saturate();
      h.fake.fail('views.push', { error: 'expired_trigger_id' });
      expect((await h.send(buildBlockActions({ from: 'modal' }))).status).toBe(200);
      await h.adapter.drainFollowUps();
      expect(h.observations).toContainEqual(
        expect.objectContaining({
          type: 'adapter_notice',
          name: 'busy_signal_failed',
          error: expect.objectContaining({ slackError: 'expired_trigger_id' }),
        }),
      );
    });

    it('reports a failed response_url post as an adapter_notice', async () => {
      await saturate();
      h.fake.fail('response_url', { status: 500 });
      const response = await h.send(buildBlockActions({ responseUrl: h.fake.responseUrl() }));
      expect(response.status).toBe(200);
      await h.adapter.drainFollowUps();
      expect(h.observations).toContainEqual(
        expect.objectContaining({
          type: 'adapter_notice',
          name: 'busy_signal_failed',
          detail: expect.objectContaining({ via: 'response_url' }),
          error: expect.objectContaining({ status: 500 }),
        }),
      );
    });

    it('stop() waits for follow-ups in flight', async () => {
      await saturate({ adapter: { busySignalTimeoutMs: 60_000 } });
      h.fake.delay('views.open', 30);
      await h.send(buildShortcut());
      await h.adapter.stop();
      expect(h.fake.callsTo('views.open')).toHaveLength(1);
      expect(h.observations.some((o) => o.type === 'adapter_notice')).toBe(false);
    });

    it('gives up on a token resolver that never answers at the budget: drain and shutdown end, with a notice', async () => {
      const asked: unknown[] = [];
      await saturate({
        adapter: {
          tokenResolver: (installation) => {
            asked.push(installation);
            return new Promise<string>(() => {});
          },
        },
      });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      expect((await h.send(buildShortcut())).status).toBe(200);
      let drained = false;
      const draining = h.adapter.drainFollowUps().then(() => {
        drained = true;
      });
      await vi.advanceTimersByTimeAsync(1999);
      expect(asked).toHaveLength(1);
      expect(drained).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await draining;
      const notice = h.observations.find(
        (o) => o.type === 'adapter_notice' && o.name === 'busy_signal_failed',
      );
      expect(notice).toMatchObject({
        detail: { shape: 'shortcut', via: 'views.open' },
        error: expect.objectContaining({ code: 'RT_SLACK_TOKEN' }),
      });
      const cause = (notice as { error: { cause: unknown } }).error.cause;
      expect((cause as Error).name).toBe('TimeoutError');
      expect(h.fake.callsTo('views.open')).toEqual([]);
      gate.resolve();
      vi.useRealTimers();
      await h.runtime.shutdown({ graceMs: 0 });
    });

    // The handler's own turn: over a socket the client reads the answer turns later.
    it.skipIf(transport.name !== 'web handler')(
      'starts a follow-up on a later tick: the token resolver has not run when the answer is returned',
      async () => {
        let resolved = 0;
        await saturate({
          adapter: {
            tokenResolver: () => {
              resolved += 1;
              return 'xoxb-later';
            },
          },
        });
        const response = await h.send(buildShortcut());
        expect(response.status).toBe(200);
        expect(resolved).toBe(0);
        await h.adapter.drainFollowUps();
        expect(resolved).toBe(1);
        expect(h.fake.callsTo('views.open')[0]?.token).toBe('xoxb-later');
      },
    );

    it('stop() also waits for a refusal still being answered when it is called, and for its follow-up', async () => {
      const mark = deferred();
      const marking = deferred();
      gate = mark;
      const state = stateWith(createMemoryState(), () => ({
        markEvent: async () => {
          marking.resolve();
          await mark.promise;
          throw new Error('state unreachable');
        },
      }));
      h = await startHarness({ transport, state });
      h.runtime.on(
        () => true,
        () => undefined,
      );
      const answering = h.send(buildShortcut());
      await marking.promise;
      let stopped = false;
      const stopping = h.adapter.stop().then(() => {
        stopped = true;
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(stopped).toBe(false);
      mark.resolve();
      expect((await answering).status).toBe(200);
      await stopping;
      // The prelude error was answered with a busy view whose call had completed when stop() ended.
      expect(h.fake.callsTo('views.open')).toHaveLength(1);
      expect(h.observations.some((o) => o.type === 'adapter_notice')).toBe(false);
    });
  });
});
