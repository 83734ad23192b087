import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedeliveryScheduler } from './redelivery.js';

describe('RedeliveryScheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries at once, after one minute and after five minutes of Slack time, then stops', async () => {
    const scheduler = new RedeliveryScheduler(60);
    const sentAt: number[] = [];
    const start = Date.now();
    const send = (attempt: number): Promise<void> => {
      sentAt.push(Date.now() - start);
      scheduler.schedule(attempt + 1, () => send(attempt + 1));
      return Promise.resolve();
    };
    expect(scheduler.schedule(1, () => send(1))).toBe('scheduled');
    const idle = scheduler.idle();
    await vi.advanceTimersByTimeAsync(10_000);
    await idle;
    expect(sentAt).toEqual([0, 1000, 6000]);
    expect(scheduler.schedule(4, () => Promise.resolve())).toBe('exhausted');
  });

  it('drops scheduled retries on cancel, tells each owner, and becomes idle', async () => {
    const scheduler = new RedeliveryScheduler(1);
    const send = vi.fn(() => Promise.resolve());
    const onCancel = vi.fn();
    scheduler.schedule(2, send, onCancel);
    expect(scheduler.scheduled).toBe(1);
    const idle = scheduler.idle();
    scheduler.cancel();
    await idle;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(send).not.toHaveBeenCalled();
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(scheduler.cancelled).toBe(true);
  });

  it('refuses retries scheduled after the stop, so a late failure is not retried', async () => {
    const scheduler = new RedeliveryScheduler(60);
    scheduler.cancel();
    const send = vi.fn(() => Promise.resolve());
    expect(scheduler.schedule(1, send)).toBe('cancelled');
    expect(scheduler.schedule(4, send)).toBe('exhausted');
    expect(scheduler.scheduled).toBe(0);
    await scheduler.idle();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(send).not.toHaveBeenCalled();
  });
});
