import { buildBlockActions, buildMessageEvent, buildShortcut } from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { deferred, type Harness, startHarness } from '../test-support/harness.js';

describe('busy-signal follow-ups', () => {
  let h: Harness;
  let gate = deferred();
  afterEach(async () => {
    gate.resolve();
    await h.close();
  });

  async function saturate(options: Parameters<typeof startHarness>[0] = {}): Promise<void> {
    h = await startHarness({ ...options, runtime: { maxDetached: 1, ...options.runtime } });
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
});
