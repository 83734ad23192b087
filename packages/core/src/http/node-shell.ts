import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpAnswer } from './http-answer.js';
import { type HttpEndpoint, serveHttp } from './http-flow.js';
import { NodeRequestView } from './request-view.js';
import { runThisTurn, type TurnTask } from './turn-batch.js';

/** A `node:http` request listener (also Express, Connect and Fastify's raw mode). */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

const ZERO_LENGTH = Object.freeze({ 'content-length': '0' });
/** The headers of an answer without body or headers of its own, as `writeHead`'s flat array. */
const ZERO_LENGTH_RAW: readonly string[] = Object.freeze(['content-length', '0']);

function gone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded;
}

/** Writes an `HttpAnswer` in one `writeHead` + `end`; a client already gone is not written to. */
function writeAnswer(res: ServerResponse, answer: HttpAnswer): void {
  try {
    if (gone(res)) return;
    const { body } = answer;
    if (body === undefined) {
      if (answer.headers === undefined) res.writeHead(answer.status, ZERO_LENGTH_RAW as string[]);
      else res.writeHead(answer.status, { ...answer.headers, ...ZERO_LENGTH });
      res.end();
      return;
    }
    const length = String(Buffer.byteLength(body));
    if (answer.headers === undefined) {
      // `writeHead`'s flat array: no header object for node:http to walk.
      const raw =
        answer.contentType === undefined
          ? ['content-length', length]
          : ['content-length', length, 'content-type', answer.contentType];
      res.writeHead(answer.status, raw);
    } else {
      const headers: Record<string, string> = { ...answer.headers, 'content-length': length };
      if (answer.contentType !== undefined) headers['content-type'] = answer.contentType;
      res.writeHead(answer.status, headers);
    }
    res.end(body);
  } finally {
    answer.onDelivered?.();
  }
}

/** A web `Response` an application built itself: the rare path, converted here and only here. */
async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
  if (gone(res)) return;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * A request as the native shell hands it to the flow: a body refused as too large is discarded
 * only once its 413 was written (so the client reads the answer before the rest is thrown away).
 */
class ShellRequestView extends NodeRequestView {
  #discardBytes: number | undefined;

  override discardBody(maxBytes: number): void {
    this.#discardBytes = maxBytes;
  }

  /** Starts the discard the flow asked for, if any (the answer is out). */
  answered(): void {
    if (this.#discardBytes !== undefined) super.discardBody(this.#discardBytes);
  }
}

/** Answers 500, or destroys the socket when headers are already out; never throws. */
function fail(endpoint: HttpEndpoint<unknown>, res: ServerResponse, error: unknown): void {
  endpoint.notice('request_failed', undefined, error);
  try {
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(500, ZERO_LENGTH);
      res.end();
    } else res.destroy();
  } catch {
    res.destroy();
  }
}

/** Writes one listener's answers when their turn's batch runs (`runThisTurn`). */
class AnswerWriter implements TurnTask<ServerResponse, HttpAnswer, ShellRequestView> {
  readonly #endpoint: HttpEndpoint<unknown>;

  constructor(endpoint: HttpEndpoint<unknown>) {
    this.#endpoint = endpoint;
  }

  run(res: ServerResponse, answer: HttpAnswer, view: ShellRequestView): void {
    try {
      writeAnswer(res, answer);
    } catch (error) {
      fail(this.#endpoint, res, error);
    }
    view.answered();
  }
}

/**
 * The native `node:http` shell over `serveHttp`: the same answers, in the same order, as the web
 * shell, without building a web `Request`, `Response` or stream on the way: headers are read from
 * `req.headers`, the body into one Buffer up to `bodyLimitBytes`, and the answer is written
 * straight to the `ServerResponse` with its `content-length`. Answers that become ready during
 * one turn of the event loop are written together at its end (`runThisTurn`, ADR 0017): once the
 * turn's other I/O callbacks are done, and far cheaper for a busy server. A client gone
 * before the answer is simply not written to (its delivery goes on). It never throws and never
 * leaves a request unanswered: a failure while writing (a `Response` whose body errors) is a
 * `request_failed` notice, and a 500, or the socket destroyed once headers are out. A body
 * refused 401 is not read further; `node:http` closes that connection.
 */
export function createNodeListener<P>(endpoint: HttpEndpoint<P>): NodeListener {
  const writer = new AnswerWriter(endpoint as HttpEndpoint<unknown>);
  return (req, res) => {
    void serveNode(endpoint, writer, req, res);
  };
}

/** One request through `serveHttp` and onto `res`: one async function, no closure per request. */
async function serveNode<P>(
  endpoint: HttpEndpoint<P>,
  writer: AnswerWriter,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const view = new ShellRequestView(req);
  try {
    const reply = await serveHttp(endpoint, view);
    if (reply instanceof Response) {
      await writeResponse(res, reply);
      view.answered();
    } else runThisTurn(writer, res, reply, view);
  } catch (error) {
    fail(endpoint as HttpEndpoint<unknown>, res, error);
    view.answered();
  }
}
