import { deferred } from '@rt/testing';
import { closeHttpTransports, HTTP_TRANSPORTS } from '@rt/testing/adapter';
import { buildMessageEvent, buildShortcut } from '@rt/testing/slack';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './test-support/harness.js';

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('Slack shutdown under continuous traffic', () => {
    let h: Harness;
    afterEach(async () => {
      await h.close();
    });

    it('converges: stop and drain wait only for what was in flight, so no step runs out its budget', async () => {
      h = await startHarness({ transport });
      h.runtime.on(
        () => true,
        async () => {},
      );
      let stopped = false;
      // Eight clients sending shortcuts back to back, before and during shutdown. Once shutdown has
      // begun each one is answered 200 with a `views.open` busy view: a follow-up that keeps arriving.
      const clients = Array.from({ length: 8 }, async () => {
        while (!stopped) {
          expect((await h.send(buildShortcut())).status).toBe(200);
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      });
      await h.observed((o) => o.type === 'dispatch_finished');
      await h.runtime.shutdown({ graceMs: 2000, abandonAfterMs: 1000 });
      stopped = true;
      await Promise.all(clients);
      expect(h.fake.callsTo('views.open').length).toBeGreaterThan(0);
      const timedOut = h.observations.filter(
        (o) => o.type === 'adapter_notice' && o.name.endsWith('_timed_out'),
      );
      expect(timedOut).toEqual([]);
    });

    it('gives up when its signal aborts, rejecting with the reason, while a follow-up still hangs', async () => {
      h = await startHarness({
        transport,
        runtime: { maxDetached: 1 },
        adapter: { busySignalTimeoutMs: 60_000 },
      });
      const gate = deferred();
      h.runtime.on(
        () => true,
        async (ctx) => {
          if (ctx.event.text === 'hold') await gate.promise;
        },
      );
      expect((await h.send(buildMessageEvent({ text: 'hold' }))).status).toBe(200);
      h.fake.hang('views.open');
      expect((await h.send(buildShortcut())).status).toBe(200);
      await h.fake.waitForCalls('views.open');
      const controller = new AbortController();
      const stopping = h.adapter.stop(controller.signal);
      const reason = new DOMException('stop ran past its budget', 'TimeoutError');
      controller.abort(reason);
      await expect(stopping).rejects.toBe(reason);
      gate.resolve();
      await h.fake.close();
    });
  });
});
