import { createMemoryState } from '@rt/state-memory';
import { deferred, stateWith } from '@rt/testing';
import { closeHttpTransports, HTTP_TRANSPORTS } from '@rt/testing/adapter';
import { buildBlockActions, buildSlashCommand, buildViewSubmission } from '@rt/testing/slack';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('a deferred direct invocation dropped after its acknowledgement', () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('tells the user it is busy through response_url (block action on a busy message)', async () => {
      h = await startHarness({ transport, runtime: { concurrency: 'drop' } });
      const hold = deferred();
      h.runtime.onAction('approve', () => hold.promise);
      const onMessage = {
        from: 'message',
        actionId: 'approve',
        messageTs: '1700000000.000200',
      } as const;
      const first = buildBlockActions({ ...onMessage, responseUrl: h.fake.responseUrl() });
      const secondUrl = h.fake.responseUrl();
      const second = buildBlockActions({ ...onMessage, responseUrl: secondUrl });
      expect((await h.send(first)).status).toBe(200);
      const ack = await h.send(second);
      expect(ack.status).toBe(200);
      expect(await ack.text()).toBe('');
      const posts = () => h!.fake.calls.filter((c) => c.method === 'response_url');
      await vi.waitFor(() => expect(posts()).toHaveLength(1));
      expect(posts()[0]).toMatchObject({
        path: new URL(secondUrl).pathname,
        args: { response_type: 'ephemeral', text: expect.stringMatching(/busy/i) },
      });
      hold.resolve();
    });

    it('runs two slash commands in one channel side by side: neither is dropped', async () => {
      h = await startHarness({ transport });
      const hold = deferred();
      let running = 0;
      h.runtime.onCommand('ask', async () => {
        running += 1;
        await hold.promise;
      });
      await h.send(buildSlashCommand({ command: '/ask', responseUrl: h.fake.responseUrl() }));
      await h.send(buildSlashCommand({ command: '/ask', responseUrl: h.fake.responseUrl() }));
      await h.observed(() => running === 2);
      expect(running).toBe(2);
      hold.resolve();
    });

    it('answers a slash command dropped under channel scope with a busy ephemeral', async () => {
      h = await startHarness({ transport, runtime: { concurrency: 'drop', lockScope: 'channel' } });
      const hold = deferred();
      h.runtime.onCommand('ask', () => hold.promise);
      await h.send(buildSlashCommand({ command: '/ask', responseUrl: h.fake.responseUrl() }));
      const secondUrl = h.fake.responseUrl();
      await h.send(buildSlashCommand({ command: '/ask', responseUrl: secondUrl }));
      const posts = () => h!.fake.calls.filter((c) => c.method === 'response_url');
      await vi.waitFor(() => expect(posts()).toHaveLength(1));
      expect(posts()[0]).toMatchObject({
        path: new URL(secondUrl).pathname,
        args: { response_type: 'ephemeral', text: expect.stringMatching(/busy/i) },
      });
      hold.resolve();
    });

    it('makes a dropped deferred view submission observable, since nothing visible is left', async () => {
      h = await startHarness({
        transport,
        runtime: { concurrency: 'drop', lockScope: () => 'one-scope' },
        adapter: { dispatchModes: { view_submission: 'deferred' } },
      });
      const hold = deferred();
      h.runtime.onFormSubmit('form', () => hold.promise);
      await h.send(buildViewSubmission({ view: { callbackId: 'form' } }));
      await h.send(buildViewSubmission({ view: { callbackId: 'form' } }));
      await h.observed((o) => o.type === 'adapter_notice' && o.name === 'dropped_without_signal');
      expect(h.fake.calls).toEqual([]);
      hold.resolve();
    });

    it('ends a drop delivery still taking its lock when shutdown starts with shutdown, never running it', async () => {
      const acquireGate = deferred();
      let gateAcquires = false;
      const state = stateWith(createMemoryState(), (inner) => ({
        acquireLock: async (key, ttlMs) => {
          if (gateAcquires) await acquireGate.promise;
          return inner.acquireLock(key, ttlMs);
        },
      }));
      h = await startHarness({
        transport,
        state,
        runtime: { concurrency: 'drop', lockScope: 'channel' },
      });
      const hold = deferred();
      let ran = 0;
      h.runtime.onCommand('ask', () => {
        ran += 1;
        return hold.promise;
      });
      await h.send(buildSlashCommand({ command: '/ask', responseUrl: h.fake.responseUrl() }));
      gateAcquires = true;
      expect(
        (await h.send(buildSlashCommand({ command: '/ask', responseUrl: h.fake.responseUrl() })))
          .status,
      ).toBe(200);
      const stopping = h.runtime.shutdown({ graceMs: 5_000 });
      // docs/contract.md §7 step 3: its handler has not started, so it ends `shutdown` at once, not `dropped`.
      await h.observed((o) => o.type === 'dispatch_finished' && o.outcome === 'shutdown');
      acquireGate.resolve();
      hold.resolve();
      await stopping;
      expect(ran).toBe(1);
      expect(h.runtime.stats().outcomes).toMatchObject({ completed: 1, shutdown: 1, dropped: 0 });
    });
  });
});
