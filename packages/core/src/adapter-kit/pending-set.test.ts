import { describe, expect, it } from 'vitest';
import { deferred } from '../test-support/test-adapter.js';
import { PendingSet } from './pending-set.js';

describe('PendingSet', () => {
  it('forgets promises once they settle, rejections included, without leaving them unhandled', async () => {
    const set = new PendingSet();
    const ok = deferred<number>();
    const bad = deferred<number>();
    const tracked = set.track(ok.promise);
    void set.track(bad.promise).catch(() => {});
    expect(set.size).toBe(2);
    ok.resolve(1);
    bad.reject(new Error('no'));
    await expect(tracked).resolves.toBe(1);
    await set.settledNow();
    expect(set.size).toBe(0);
  });

  it('settledNow waits only for what was tracked at the call, however much arrives later', async () => {
    const set = new PendingSet();
    const first = deferred();
    void set.track(first.promise);
    let settled = false;
    const waiting = set.settledNow().then(() => {
      settled = true;
    });
    const later = deferred();
    void set.track(later.promise);
    first.resolve();
    await waiting;
    expect(settled).toBe(true);
    expect(set.size).toBe(1);
    later.resolve();
  });

  it('settledNow calls made at different moments each wait for what was tracked before them', async () => {
    const set = new PendingSet();
    const a = deferred();
    const b = deferred();
    const c = deferred();
    const done: string[] = [];
    void set.track(a.promise);
    const first = set.settledNow().then(() => done.push('first'));
    void set.track(b.promise);
    const second = set.settledNow().then(() => done.push('second'));
    void set.track(c.promise);
    b.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toEqual([]); // a, tracked before both, still runs
    expect(set.size).toBe(2);
    a.resolve();
    await Promise.all([first, second]);
    expect(done).toEqual(['first', 'second']);
    expect(set.size).toBe(1); // c, tracked after both
    const third = set.settledNow();
    c.resolve();
    await third;
    expect(set.size).toBe(0);
    await set.settledNow(); // nothing tracked: at once
  });

  it('settled waits also for what is tracked while it waits', async () => {
    const set = new PendingSet();
    const first = deferred();
    const later = deferred();
    void set.track(first.promise);
    let settled = false;
    const waiting = set.settled().then(() => {
      settled = true;
    });
    void set.track(later.promise);
    first.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    later.resolve();
    await waiting;
  });

  it('settledNow rejects with the signal reason when it aborts first', async () => {
    const set = new PendingSet();
    const hung = deferred();
    void set.track(hung.promise);
    const controller = new AbortController();
    const waiting = set.settledNow(controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    hung.resolve();
  });
});
