import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { deferred } from '../test-support/test-adapter.js';
import { type HttpAnswer, OK_ANSWER } from './http-answer.js';
import type { HttpEndpoint } from './http-flow.js';
import { createNodeListener } from './node-shell.js';

/** An endpoint that verifies everything and answers each payload with `answer(payload)`. */
function endpoint(answer: (payload: string) => Promise<HttpAnswer>): HttpEndpoint<string> {
  return {
    bodyLimitBytes: 64,
    clock: () => 1_000,
    ackDeadlineMs: 3000,
    syncDeadlineMs: 2000,
    notice: () => undefined,
    checkHeaders: () => ({ ok: true }),
    verify: () => ({ ok: true }),
    parse: (body) => body,
    answer,
  };
}

/** A signed-looking POST whose body is `body`, as the listener reads it. */
function request(body: string): IncomingMessage {
  return Object.assign(Readable.from([Buffer.from(body)]), {
    method: 'POST',
    headers: { 'content-length': String(body.length) },
  }) as unknown as IncomingMessage;
}

/** A response that logs what is written to it, as `<name> <status>`. */
function response(log: string[], name: string): ServerResponse {
  const res = {
    headersSent: false,
    destroyed: false,
    writableEnded: false,
    writeHead(status: number) {
      res.headersSent = true;
      log.push(`${name} ${status}`);
      return res;
    },
    end() {
      res.writableEnded = true;
    },
    destroy() {
      res.destroyed = true;
    },
  };
  return res as unknown as ServerResponse;
}

/** Resolves after the current turn's check phase. */
function afterThisTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('the native shell', () => {
  it('writes the answers that became ready in one turn together at its end, in order', async () => {
    const ready = deferred<void>();
    const arrived: string[] = [];
    const listener = createNodeListener(
      endpoint(async (payload) => {
        arrived.push(payload);
        await ready.promise;
        return OK_ANSWER;
      }),
    );
    const log: string[] = [];
    listener(request('first'), response(log, 'first'));
    listener(request('second'), response(log, 'second'));
    while (arrived.length < 2) await afterThisTurn();

    ready.resolve();
    for (let hop = 0; hop < 20; hop += 1) await Promise.resolve();
    expect(log).toEqual([]); // ready, not yet written: the turn has not ended
    await afterThisTurn();
    expect(log).toEqual(['first 200', 'second 200']);
  });
});
