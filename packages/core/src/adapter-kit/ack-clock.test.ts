import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onAckDeadline, startAckClock } from './ack-clock.js';

describe('startAckClock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts the sync signal, then expires, counted from now by default', async () => {
    const clock = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    let expired = false;
    void clock.expired.then(() => {
      expired = true;
    });
    await vi.advanceTimersByTimeAsync(199);
    expect(clock.syncSignal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(clock.syncSignal.reason).toMatchObject({ name: 'TimeoutError' });
    await vi.advanceTimersByTimeAsync(99);
    expect(expired).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toBe(true);
  });

  it('counts both deadlines from the receipt time it is given', async () => {
    const receivedAt = Date.now();
    await vi.advanceTimersByTimeAsync(250);
    const clock = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200, receivedAt });
    expect(clock.receivedAt).toBe(receivedAt);
    await vi.advanceTimersByTimeAsync(0);
    expect(clock.syncSignal.aborted).toBe(true);
    let expired = false;
    void clock.expired.then(() => {
      expired = true;
    });
    await vi.advanceTimersByTimeAsync(49);
    expect(expired).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toBe(true);
  });

  it('fires at once for a delivery received longer ago than the deadline', async () => {
    const clock = startAckClock({
      ackDeadlineMs: 300,
      syncDeadlineMs: 200,
      receivedAt: Date.now() - 1000,
    });
    await vi.advanceTimersByTimeAsync(0);
    await clock.expired;
    expect(clock.syncSignal.aborted).toBe(true);
  });

  it('compares the receipt time with its own clock, so a skewed clock moves no deadline', async () => {
    const skewed = () => Date.now() - 60_000;
    const clock = startAckClock({
      ackDeadlineMs: 300,
      syncDeadlineMs: 200,
      receivedAt: skewed(),
      now: skewed,
    });
    let expired = false;
    void clock.expired.then(() => {
      expired = true;
    });
    await vi.advanceTimersByTimeAsync(299);
    expect(expired).toBe(false);
    expect(clock.syncSignal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toBe(true);
  });

  it('never fires once disposed', async () => {
    const clock = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    clock.dispose();
    await vi.advanceTimersByTimeAsync(1000);
    expect(clock.syncSignal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses non-positive or inverted deadlines, naming the option', () => {
    expect(() => startAckClock({ ackDeadlineMs: 0, syncDeadlineMs: 0 })).toThrow(/ackDeadlineMs/);
    expect(() => startAckClock({ ackDeadlineMs: 100, syncDeadlineMs: 200 })).toThrow(
      /syncDeadlineMs/,
    );
  });

  it('builds the sync signal on first read only: aborted then if its deadline has passed', async () => {
    const early = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    const late = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    await vi.advanceTimersByTimeAsync(150);
    const signal = early.syncSignal;
    expect(early.syncSignal).toBe(signal);
    await vi.advanceTimersByTimeAsync(50);
    expect(signal.aborted).toBe(true);
    expect(late.syncSignal.reason).toMatchObject({ name: 'TimeoutError' });
    early.dispose();
    late.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('runs one timer at a time: to the sync deadline, then the rest to the ack deadline', async () => {
    const clock = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(clock.syncSignal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(vi.getTimerCount()).toBe(0);
    await expect(clock.expired).resolves.toBeUndefined();
  });

  it('expires in one step when both deadlines are the same', async () => {
    const clock = startAckClock({ ackDeadlineMs: 200, syncDeadlineMs: 200 });
    let expired = false;
    void clock.expired.then(() => {
      expired = true;
    });
    await vi.advanceTimersByTimeAsync(199);
    expect(expired).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect([expired, clock.syncSignal.aborted, vi.getTimerCount()]).toEqual([true, true, 0]);
  });

  it('tells a deadline listener at the ack deadline, and never once disposed', async () => {
    const told: string[] = [];
    const listener = (name: string) => ({ ackDeadlinePassed: () => void told.push(name) });
    const kept = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    const disposed = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    onAckDeadline(kept, listener('kept'));
    onAckDeadline(kept, listener('kept again'));
    onAckDeadline(disposed, listener('disposed'));
    disposed.dispose();
    await vi.advanceTimersByTimeAsync(299);
    expect(told).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(told).toEqual(['kept', 'kept again']);
    onAckDeadline(kept, listener('late'));
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toEqual(['kept', 'kept again', 'late']);
  });
});
