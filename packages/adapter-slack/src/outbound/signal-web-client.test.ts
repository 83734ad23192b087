import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Deferred, deferred } from '@rt/testing';
import {
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
} from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAbortedAttempt, SignalWebClient, withSignal } from './signal-web-client.js';

/** One request the server holds: answer it with `ok`, or see it closed by the client. */
interface Held {
  readonly text: string;
  readonly closed: Deferred<void>;
  ok(): void;
}

/** What `call` rejected with (`undefined` if it resolved), its rejection handled from the start. */
function failureOf(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** A Web API on 127.0.0.1 that holds every request until the test answers it. */
async function startHoldingApi(): Promise<{
  readonly url: string;
  readonly held: Held[];
  next(): Promise<Held>;
  close(): Promise<void>;
}> {
  const held: Held[] = [];
  let arrived = deferred<Held>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const closed = deferred();
      res.on('close', () => closed.resolve());
      const request: Held = {
        text: new URLSearchParams(body).get('text') ?? '',
        closed,
        ok: () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ok: true, ts: '1.2' }));
        },
      };
      held.push(request);
      arrived.resolve(request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    held,
    async next() {
      const request = await arrived.promise;
      arrived = deferred<Held>();
      return request;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('SignalWebClient', () => {
  let api: Awaited<ReturnType<typeof startHoldingApi>>;
  beforeEach(async () => {
    api = await startHoldingApi();
  });
  afterEach(async () => {
    await api.close();
  });

  it('cancels the HTTP request in flight: the server sees it closed at the abort', async () => {
    const client = new SignalWebClient('xoxb-test', {
      slackApiUrl: api.url,
      timeout: 60_000,
      retryConfig: { retries: 3, minTimeout: 60_000 },
    });
    const controller = new AbortController();
    const call = failureOf(
      client.chat.postMessage(withSignal({ channel: 'C1', text: 'hello' }, controller.signal)),
    );
    const request = await api.next();
    expect(request.closed.settled).toBe(false);
    const reason = new Error('delivery aborted');
    controller.abort(reason);
    await request.closed.promise;
    const error = await call;
    expect(error).toBeInstanceOf(WebAPIRequestError);
    expect((error as WebAPIRequestError).original).toBe(reason);
    expect(api.held).toHaveLength(1);
  });

  it('gives a signal only to the request of its own call', async () => {
    const client = new SignalWebClient('xoxb-test', {
      slackApiUrl: api.url,
      retryConfig: { retries: 0 },
    });
    const controller = new AbortController();
    const aborted = failureOf(
      client.chat.postMessage(withSignal({ channel: 'C1', text: 'first' }, controller.signal)),
    );
    const first = await api.next();
    const kept = client.chat.postMessage({ channel: 'C1', text: 'second' });
    const second = await api.next();
    controller.abort(new Error('only the first'));
    await first.closed.promise;
    expect(await aborted).toBeInstanceOf(WebAPIRequestError);
    expect(second.closed.settled).toBe(false);
    second.ok();
    await expect(kept).resolves.toMatchObject({ ok: true, ts: '1.2' });
    expect([first.text, second.text]).toEqual(['first', 'second']);
  });

  it('keeps the per-attempt timeout beside the signal, and retries a timed-out attempt', async () => {
    const client = new SignalWebClient('xoxb-test', {
      slackApiUrl: api.url,
      timeout: 50,
      retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 },
    });
    const call = client.chat.postMessage(
      withSignal({ channel: 'C1', text: 'slow' }, new AbortController().signal),
    );
    const error = await failureOf(call);
    expect(error).toBeInstanceOf(WebAPIRequestError);
    expect((error as WebAPIRequestError).original.name).toBe('TimeoutError');
    expect(api.held).toHaveLength(2);
    await Promise.all(api.held.map((request) => request.closed.promise));
  });

  it('sends nothing for a call whose signal aborted already, and does not retry it', async () => {
    const client = new SignalWebClient('xoxb-test', {
      slackApiUrl: api.url,
      retryConfig: { retries: 5, minTimeout: 60_000 },
    });
    const reason = 'a string reason';
    const call = client.chat.postMessage(
      withSignal({ channel: 'C1', text: 'late' }, AbortSignal.abort(reason)),
    );
    const error = await failureOf(call);
    expect(error).toBeInstanceOf(WebAPIRequestError);
    expect((error as WebAPIRequestError).original).toMatchObject({
      name: 'AbortError',
      message: reason,
    });
    expect(api.held).toEqual([]);
  });

  it('stops listening to the call signal once each answer is read: a long-lived signal gathers no listeners', async () => {
    const client = new SignalWebClient('xoxb-test', {
      slackApiUrl: api.url,
      timeout: 60_000,
      retryConfig: { retries: 0 },
    });
    const controller = new AbortController();
    for (let turn = 0; turn < 3; turn += 1) {
      const call = client.chat.postMessage(
        withSignal({ channel: 'C1', text: `turn ${turn}` }, controller.signal),
      );
      (await api.next()).ok();
      await expect(call).resolves.toMatchObject({ ok: true });
    }
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });

  it('passes the joined signal to the fetch given in its options', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const client = new SignalWebClient('xoxb-test', {
      slackApiUrl: api.url,
      timeout: 60_000,
      retryConfig: { retries: 0 },
      fetch: (url, init) => {
        signals.push(init?.signal);
        return globalThis.fetch(url, init);
      },
    });
    const controller = new AbortController();
    const call = failureOf(
      client.chat.postMessage(withSignal({ channel: 'C1', text: 'own fetch' }, controller.signal)),
    );
    const request = await api.next();
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(false);
    controller.abort(new Error('stop'));
    expect(signals[0]?.aborted).toBe(true);
    await request.closed.promise;
    expect(await call).toBeInstanceOf(WebAPIRequestError);
  });
});

describe('isAbortedAttempt', () => {
  const named = (name: string) => new DOMException('x', name);

  it("recognises @slack/web-api 8's aborted attempts: a WebAPIRequestError of an AbortError", () => {
    expect(isAbortedAttempt(new WebAPIRequestError(named('AbortError')))).toBe(true);
    expect(isAbortedAttempt(named('AbortError'))).toBe(true);
  });

  it('leaves every other failure to the retry policy', () => {
    expect(isAbortedAttempt(new WebAPIRequestError(named('TimeoutError')))).toBe(false);
    expect(isAbortedAttempt(new WebAPIRequestError(new TypeError('fetch failed')))).toBe(false);
    expect(isAbortedAttempt(new WebAPIHTTPError(500, 'Internal Server Error', {}, ''))).toBe(false);
    expect(isAbortedAttempt(new WebAPIPlatformError({ ok: false, error: 'x' }))).toBe(false);
    expect(isAbortedAttempt(new WebAPIRateLimitedError(3))).toBe(false);
    expect(isAbortedAttempt(new Error('boom'))).toBe(false);
    expect(isAbortedAttempt('AbortError')).toBe(false);
    expect(isAbortedAttempt(undefined)).toBe(false);
  });
});
