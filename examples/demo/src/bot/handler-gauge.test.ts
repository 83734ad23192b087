import { describe, expect, it } from 'vitest';
import { HandlerGauge } from './handler-gauge.js';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('HandlerGauge', () => {
  it('counts bodies running at once and keeps the peak', async () => {
    const gauge = new HandlerGauge();
    const first = deferred();
    const second = deferred();
    const a = gauge.run(() => first.promise);
    const b = gauge.run(() => second.promise);
    expect(gauge.running).toBe(2);
    first.resolve();
    await a;
    expect(gauge.running).toBe(1);
    const c = gauge.run(() => Promise.resolve('done'));
    expect(gauge.peak).toBe(2);
    await expect(c).resolves.toBe('done');
    second.resolve();
    await b;
    expect({ running: gauge.running, entered: gauge.entered, exited: gauge.exited }).toEqual({
      running: 0,
      entered: 3,
      exited: 3,
    });
  });

  it('releases a body that throws and counts it', async () => {
    const gauge = new HandlerGauge();
    const body = deferred();
    const run = gauge.run(() => body.promise);
    body.reject(new Error('aborted'));
    await expect(run).rejects.toThrow('aborted');
    expect({ running: gauge.running, exited: gauge.exited, threw: gauge.threw }).toEqual({
      running: 0,
      exited: 1,
      threw: 1,
    });
  });

  it('counts the bodies of child gauges in their parent, at once', async () => {
    const all = new HandlerGauge();
    const slack = new HandlerGauge(all);
    const discord = new HandlerGauge(all);
    const first = deferred();
    const second = deferred();
    const a = slack.run(() => first.promise);
    const b = discord.run(() => second.promise);
    expect({ all: all.running, slack: slack.running, discord: discord.running }).toEqual({
      all: 2,
      slack: 1,
      discord: 1,
    });
    first.resolve();
    second.reject(new Error('aborted'));
    await a;
    await expect(b).rejects.toThrow('aborted');
    expect({ peak: all.peak, entered: all.entered, threw: all.threw }).toEqual({
      peak: 2,
      entered: 2,
      threw: 1,
    });
    expect({ slack: slack.peak, discord: discord.threw, running: all.running }).toEqual({
      slack: 1,
      discord: 1,
      running: 0,
    });
  });
});
