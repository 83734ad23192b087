import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimerWheel, WheelTimer } from './timer-wheel.js';

const record = (log: string[]) => (name: string) => log.push(`${name}@${Date.now()}`);

describe('TimerWheel', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires each timer exactly at its deadline under fake timers', () => {
    const log: string[] = [];
    const wheel = new TimerWheel();
    wheel.schedule(new WheelTimer(record(log), 'a'), 30);
    wheel.schedule(new WheelTimer(record(log), 'b'), 10);
    vi.advanceTimersByTime(9);
    expect(log).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['b@10']);
    vi.advanceTimersByTime(20);
    expect(log).toEqual(['b@10', 'a@30']);
    expect(wheel.size).toBe(0);
  });

  it('keeps one setTimeout armed however many timers are scheduled', () => {
    const wheel = new TimerWheel();
    for (let i = 0; i < 100; i += 1) wheel.schedule(new WheelTimer(() => {}, i), 1000 + i);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1099);
    expect(wheel.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('orders a lane by deadline even when scheduled out of order, ties by scheduling order', () => {
    const log: string[] = [];
    const wheel = new TimerWheel();
    wheel.schedule(new WheelTimer(record(log), 'late'), 50, 100);
    wheel.schedule(new WheelTimer(record(log), 'early'), 20, 100);
    wheel.schedule(new WheelTimer(record(log), 'tie-first'), 20, 7);
    wheel.schedule(new WheelTimer(record(log), 'tie-second'), 20, 100);
    vi.advanceTimersByTime(50);
    expect(log).toEqual(['early@20', 'tie-first@20', 'tie-second@20', 'late@50']);
  });

  it('never fires a cancelled timer, and disarms once nothing is scheduled', () => {
    const callback = vi.fn();
    const wheel = new TimerWheel();
    const timer = new WheelTimer(callback, 'x');
    wheel.schedule(timer, 10);
    expect(timer.scheduled).toBe(true);
    wheel.cancel(timer);
    wheel.cancel(timer);
    expect(timer.scheduled).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(100);
    expect(callback).not.toHaveBeenCalled();
  });

  it('fires at its deadline on an epoch-ms clock, and follows a jump of the system time', () => {
    vi.setSystemTime(1_700_000_000_000);
    const log: string[] = [];
    const at = (name: string) => log.push(`${name}@${Date.now() - 1_700_000_000_000}`);
    const wheel = new TimerWheel();
    wheel.schedule(new WheelTimer(at, 'a'), 30);
    vi.advanceTimersByTime(29);
    expect(log).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['a@30']);
    // Due by the wall clock after a jump, like a timer scheduled at epoch ms: the next timeout fires it.
    wheel.schedule(new WheelTimer(at, 'b'), 1_000);
    vi.setSystemTime(1_700_000_002_000);
    vi.advanceTimersByTime(1_000);
    expect(log).toEqual(['a@30', 'b@3000']);
  });

  it('reschedules a timer that is already scheduled instead of adding it twice', () => {
    const log: string[] = [];
    const wheel = new TimerWheel();
    const timer = new WheelTimer(record(log), 'r');
    wheel.schedule(timer, 10);
    wheel.schedule(timer, 25);
    expect(wheel.size).toBe(1);
    vi.advanceTimersByTime(30);
    expect(log).toEqual(['r@25']);
  });

  it('fires a timer a callback schedules for now on a later timeout, not in the same pass', () => {
    const log: string[] = [];
    const wheel = new TimerWheel();
    const again = new WheelTimer(record(log), 'again');
    wheel.schedule(
      new WheelTimer(() => {
        log.push(`first@${Date.now()}`);
        wheel.schedule(again, 0);
        expect(log).toEqual(['first@10']);
      }, undefined),
      10,
    );
    vi.advanceTimersByTime(10);
    expect(log).toEqual(['first@10']);
    // A 0 ms `setTimeout` runs at least 1 ms later on Node (and under fake timers).
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['first@10', 'again@11']);
  });

  it('fires the other due timers when one callback throws, then rethrows its error', () => {
    const wheel = new TimerWheel();
    const after = vi.fn();
    wheel.schedule(
      new WheelTimer(() => {
        throw new Error('boom');
      }, undefined),
      5,
    );
    wheel.schedule(new WheelTimer(after, undefined), 5);
    expect(() => vi.advanceTimersByTime(5)).toThrow('boom');
    expect(after).toHaveBeenCalledTimes(1);
  });

  /** The `setTimeout` a wheel built with `options` arms, and how often it `unref`ed it. */
  function armedBy(options?: { keepAlive?: boolean }): { armed: number; unrefs: number } {
    vi.useRealTimers();
    const unref = vi.fn();
    const spy = vi
      .spyOn(globalThis, 'setTimeout')
      .mockReturnValue({ unref } as unknown as ReturnType<typeof setTimeout>);
    try {
      new TimerWheel(options).schedule(new WheelTimer(() => {}, undefined), 1000);
      return { armed: spy.mock.calls.length, unrefs: unref.mock.calls.length };
    } finally {
      spy.mockRestore();
    }
  }

  it('never sleeps past maxSleepMs: a far timer still fires at its deadline, a nearer one scheduled after it arms nothing', () => {
    const log: string[] = [];
    const wheel = new TimerWheel({ maxSleepMs: 100 });
    const arms = vi.spyOn(globalThis, 'setTimeout');
    wheel.schedule(new WheelTimer(record(log), 'far'), 250);
    vi.advanceTimersByTime(10);
    // Within the sleep already armed (it wakes at 100): no second arm, as a lease's renewal and
    // expiry after its delivery's detach timeout.
    wheel.schedule(new WheelTimer(record(log), 'near'), 90);
    wheel.schedule(new WheelTimer(record(log), 'mid'), 150);
    expect(arms).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(89);
    expect(log).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['near@100']);
    vi.advanceTimersByTime(59);
    expect(log).toEqual(['near@100']);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['near@100', 'mid@160']);
    vi.advanceTimersByTime(89);
    expect(log).toEqual(['near@100', 'mid@160']);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['near@100', 'mid@160', 'far@250']);
    expect(vi.getTimerCount()).toBe(0);
    arms.mockRestore();
  });

  it('refuses a maxSleepMs that is not a positive number', () => {
    expect(() => new TimerWheel({ maxSleepMs: 0 })).toThrow(RangeError);
    expect(() => new TimerWheel({ maxSleepMs: Number.NaN })).toThrow(RangeError);
  });

  it('arms an unref-ed timeout', () => {
    expect(armedBy()).toEqual({ armed: 1, unrefs: 1 });
  });

  it('arms a timeout that keeps the process alive when built with keepAlive', () => {
    expect(armedBy({ keepAlive: true })).toEqual({ armed: 1, unrefs: 0 });
  });
});
