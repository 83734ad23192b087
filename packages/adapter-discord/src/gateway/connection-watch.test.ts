import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionWatch } from './connection-watch.js';
import { resolveGatewayOptions } from './gateway-options.js';

describe('ConnectionWatch', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  function watch(thresholdMs = 1000) {
    const notices: { name: string; detail?: Readonly<Record<string, unknown>> }[] = [];
    const w = new ConnectionWatch(
      thresholdMs,
      (name, detail) => void notices.push({ name, detail }),
      Date.now,
    );
    return { w, notices };
  }

  it('says nothing about a drop shorter than the threshold', () => {
    const { w, notices } = watch();
    w.dropped();
    vi.advanceTimersByTime(999);
    w.restored();
    vi.advanceTimersByTime(5000);
    expect(notices).toEqual([]);
    expect(w.down).toBe(false);
  });

  it('reports an outage once at the threshold, however often discord.js retries, and its end', () => {
    const { w, notices } = watch();
    w.dropped();
    vi.advanceTimersByTime(600);
    w.dropped();
    vi.advanceTimersByTime(400);
    w.dropped();
    vi.advanceTimersByTime(10_000);
    expect(notices).toEqual([
      {
        name: 'gateway_disconnected',
        detail: { downForMs: 1000, recoverable: true, thresholdMs: 1000 },
      },
    ]);
    w.restored();
    expect(notices[1]).toEqual({ name: 'gateway_reconnected', detail: { downForMs: 11_000 } });
  });

  it('reports an unrecoverable close at once', () => {
    const { w, notices } = watch();
    w.closedForGood(4004);
    expect(notices).toEqual([
      { name: 'gateway_disconnected', detail: { code: 4004, recoverable: false, downForMs: 0 } },
    ]);
  });

  it('after dispose (the adapter’s own destroy) nothing is reported', () => {
    const { w, notices } = watch();
    w.dispose();
    w.dropped();
    vi.advanceTimersByTime(5000);
    w.closedForGood(1000);
    expect(notices).toEqual([]);
  });
});

describe('resolveGatewayOptions', () => {
  it('true means every default', () => {
    const resolved = resolveGatewayOptions(true);
    expect(resolved).toMatchObject({
      botMessages: 'ignore',
      busySignal: 'reply',
      busyReaction: '⏳',
      interactions: true,
      reactions: true,
      disconnectedAlertMs: 30_000,
    });
    // guilds 1, guild messages 512, reactions 1024, DMs 4096, DM reactions 8192, content 32768
    expect(resolved.intents).toBe(1 | 512 | 1024 | 4096 | 8192 | 32_768);
  });

  it('takes intents as a list of bits', () => {
    expect(resolveGatewayOptions({ intents: [1, 512] }).intents).toBe(513);
  });

  it.each([
    [{ intents: 0 }, /gateway\.intents/],
    [{ intents: [] }, /gateway\.intents/],
    [{ botMessages: 'some' }, /gateway\.botMessages must be one of/],
    [{ busySignal: 'shout' }, /gateway\.busySignal/],
    [{ busyReaction: ' ' }, /gateway\.busyReaction/],
    [{ interactions: 'yes' }, /gateway\.interactions must be a boolean/],
    [{ disconnectedAlertMs: -1 }, /gateway\.disconnectedAlertMs must be a positive integer/],
    [{ readyTimeoutMs: 1.5 }, /gateway\.readyTimeoutMs/],
    [{ rawDispatches: ['guild_member_add'] }, /gateway\.rawDispatches/],
  ])('refuses %j naming the option', (options, message) => {
    expect(() => resolveGatewayOptions(options as never)).toThrow(message);
  });
});
