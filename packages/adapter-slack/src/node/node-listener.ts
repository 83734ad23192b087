import type { IncomingMessage, ServerResponse } from 'node:http';
import { discardNodeBody, readNodeBody } from '@rt/core/adapter';
import type { HttpAnswer } from '../http/http-answer.js';
import type { HttpRequestView } from '../http/read-signed-body.js';
import { serveSlackHttp } from '../http/serve-http.js';
import type { SlackCoreDeps } from '../inbound/deps.js';

/** A `node:http` request listener (also Express, Connect and Fastify's raw mode). */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** An `IncomingMessage` as the neutral HTTP flow reads it: headers and body, no web objects. */
function viewOf(req: IncomingMessage): HttpRequestView {
  return {
    method: req.method ?? 'GET',
    header(name) {
      const value = req.headers[name];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
    readBody: (limitBytes) => readNodeBody(req, limitBytes),
    discardBody: (maxBytes) => discardNodeBody(req, maxBytes),
  };
}

/** Writes `answer` to `res` in one `writeHead` + `end`, unless the client is already gone. */
async function write(res: ServerResponse, answer: HttpAnswer | Response): Promise<void> {
  if (res.destroyed || res.writableEnded) return;
  if (answer instanceof Response) {
    // A sync handler's own web Response: the rare path, converted here and only here.
    const body = answer.body === null ? undefined : Buffer.from(await answer.arrayBuffer());
    if (res.destroyed || res.writableEnded) return;
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, key) => {
      headers[key] = value;
    });
    res.writeHead(answer.status, headers);
    res.end(body);
    return;
  }
  const { body } = answer;
  if (body === undefined) {
    if (answer.headers === undefined) res.writeHead(answer.status, ZERO_LENGTH);
    else res.writeHead(answer.status, { ...answer.headers, 'content-length': '0' });
    res.end();
    return;
  }
  const headers: Record<string, string | number> = {
    ...answer.headers,
    'content-length': Buffer.byteLength(body),
  };
  if (answer.contentType !== undefined) headers['content-type'] = answer.contentType;
  res.writeHead(answer.status, headers);
  res.end(body);
}

const ZERO_LENGTH = Object.freeze({ 'content-length': '0' });

/**
 * Builds the adapter's native `node:http` listener: the same answers, in the same order, as the
 * web-standard handler (both only convert for `serveSlackHttp`), without building a web
 * `Request`, `Response` or stream: the body is read into one Buffer up to `bodyLimitBytes`
 * (`readNodeBody`), and the acknowledgement is written straight to the `ServerResponse`. It never
 * throws and never leaves a request unanswered: a failure while writing (a `Response` body that
 * errors) destroys the socket, and is reported as an `adapter_notice` named `request_failed`.
 * A client gone before the answer is simply not written to; its delivery goes on. After a 413 the
 * rest of the body is read and discarded up to eight times the limit, so the client sees the
 * answer; a body refused 401 is not read further, and `node:http` closes that connection.
 */
export function createNodeListener(deps: SlackCoreDeps): NodeListener {
  return (req, res) => {
    serveSlackHttp(deps, viewOf(req))
      .then((answer) => write(res, answer))
      .catch((error: unknown) => {
        deps.notice('request_failed', undefined, error);
        if (!res.headersSent && !res.destroyed) {
          res.writeHead(500, ZERO_LENGTH);
          res.end();
        } else res.destroy();
      });
  };
}
