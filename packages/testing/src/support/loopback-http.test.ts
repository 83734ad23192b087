import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChangeWaiters, RouteFaults, readBody, startLoopbackHttp } from './loopback-http.js';

describe('startLoopbackHttp', () => {
  it('serves on 127.0.0.1 at an ephemeral port and hands the handler each request', async () => {
    const http = await startLoopbackHttp(async (req, res) => {
      const body = await readBody(req);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${req.method} ${body}`);
    });
    try {
      expect(http.origin).toBe(`http://127.0.0.1:${http.port}`);
      expect(http.port).toBeGreaterThan(0);
      const response = await fetch(http.origin, { method: 'POST', body: 'héllo' });
      expect(await response.text()).toBe('POST héllo');
    } finally {
      await http.close();
    }
  });

  it('answers 500 when the handler throws or rejects', async () => {
    const http = await startLoopbackHttp((req) => {
      if (req.url === '/sync') throw new Error('sync bug');
      return Promise.reject(new Error('async bug'));
    });
    try {
      expect((await fetch(`${http.origin}/sync`)).status).toBe(500);
      expect((await fetch(`${http.origin}/async`)).status).toBe(500);
    } finally {
      await http.close();
    }
  });

  it('closes once: every close returns the same promise and beforeClose runs once', async () => {
    const beforeClose = vi.fn();
    const http = await startLoopbackHttp((_req, res) => void res.end(), { beforeClose });
    const first = http.close();
    expect(http.close()).toBe(first);
    await first;
    expect(beforeClose).toHaveBeenCalledTimes(1);
    expect(http.server.listening).toBe(false);
  });

  it('drops a connection whose request never got an answer', async () => {
    const http = await startLoopbackHttp(() => {
      // never answers
    });
    const arrived = new Promise<void>((resolve) => http.server.once('request', () => resolve()));
    const pending = fetch(http.origin).then(
      () => 'answered',
      () => 'dropped',
    );
    await arrived;
    await http.close();
    expect(await pending).toBe('dropped');
  });
});

describe('ChangeWaiters', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves at once with a value that is already there', async () => {
    const waiters = new ChangeWaiters('fake');
    await expect(
      waiters.until(
        () => 7,
        10,
        () => 'seven',
      ),
    ).resolves.toBe(7);
  });

  it('resolves after the change that makes the check pass', async () => {
    const waiters = new ChangeWaiters('fake');
    let value: string | undefined;
    const waiting = waiters.until(
      () => value,
      1000,
      () => 'a value',
    );
    waiters.changed();
    value = 'there';
    waiters.changed();
    await expect(waiting).resolves.toBe('there');
  });

  it('rejects after its timeout naming the fake and what it waited for', async () => {
    vi.useFakeTimers();
    const waiters = new ChangeWaiters('fake Thing');
    const waiting = waiters.until(
      () => undefined,
      250,
      () => 'got 0 of 1 calls',
    );
    const assertion = expect(waiting).rejects.toThrow('fake Thing: got 0 of 1 calls within 250 ms');
    await vi.advanceTimersByTimeAsync(250);
    await assertion;
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its timer once resolved', async () => {
    vi.useFakeTimers();
    const waiters = new ChangeWaiters('fake');
    let done = false;
    const waiting = waiters.until(
      () => (done ? true : undefined),
      1000,
      () => 'done',
    );
    expect(vi.getTimerCount()).toBe(1);
    done = true;
    waiters.changed();
    await waiting;
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('RouteFaults', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers normally by default', async () => {
    await expect(new RouteFaults<string, string>().apply('chat.postMessage')).resolves.toBe(
      undefined,
    );
  });

  it('fails the given number of calls, then answers normally', async () => {
    const faults = new RouteFaults<string, string>();
    faults.fail('m', 'ratelimited', 2);
    expect(await faults.apply('m')).toEqual({ type: 'fail', failure: 'ratelimited' });
    expect(await faults.apply('m')).toEqual({ type: 'fail', failure: 'ratelimited' });
    expect(await faults.apply('m')).toBeUndefined();
    expect(await faults.apply('other')).toBeUndefined();
  });

  it('fails every call when no count is given', async () => {
    const faults = new RouteFaults<string, string>();
    faults.fail('m', 'down');
    for (let i = 0; i < 5; i += 1) {
      expect(await faults.apply('m')).toEqual({ type: 'fail', failure: 'down' });
    }
  });

  it('says hang for a hanging route', async () => {
    const faults = new RouteFaults<string, string>();
    faults.hang('m');
    expect(await faults.apply('m')).toEqual({ type: 'hang' });
  });

  it('delays a route before deciding', async () => {
    vi.useFakeTimers();
    const faults = new RouteFaults<string, string>();
    faults.delay('m', 300);
    let decided = false;
    const deciding = faults.apply('m').then((fault) => {
      decided = true;
      return fault;
    });
    await vi.advanceTimersByTimeAsync(299);
    expect(decided).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(deciding).resolves.toBeUndefined();
  });
});
