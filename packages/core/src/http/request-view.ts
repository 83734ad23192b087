import type { IncomingMessage } from 'node:http';
import { type BodyRead, discardBody, readBodyUpTo } from './read-body.js';
import { discardNodeBody, readNodeBody } from './read-node-body.js';

/**
 * One HTTP request as the transport-neutral HTTP flow reads it: its method, its headers, and its
 * body within a limit. Each shell provides one (`webRequestView`, `nodeRequestView`), so the flow
 * never sees a web `Request` or an `IncomingMessage`.
 */
export interface HttpRequestView {
  readonly method: string;
  /** A header's value (lower-case name), `null` when absent; repeated headers joined by `, `. */
  header(name: string): string | null;
  /** Reads the body as UTF-8 text, at most `limitBytes`. Never rejects. */
  readBody(limitBytes: number): Promise<BodyRead>;
  /**
   * Discards the rest of a body refused as too large, at most `maxBytes` of it, in the background
   * (so a client still sending reads the answer); past the cap the transport gives up on the body.
   */
  discardBody(maxBytes: number): void;
}

/** A web `Request` as the HTTP flow reads it (`readBodyUpTo`, `discardBody`). */
export function webRequestView(request: Request): HttpRequestView {
  return new WebRequestView(request);
}

/** `webRequestView`'s view: one object, its methods shared on the prototype. */
class WebRequestView implements HttpRequestView {
  readonly #request: Request;

  constructor(request: Request) {
    this.#request = request;
  }

  get method(): string {
    return this.#request.method;
  }

  header(name: string): string | null {
    return this.#request.headers.get(name);
  }

  readBody(limitBytes: number): Promise<BodyRead> {
    return readBodyUpTo(this.#request, limitBytes);
  }

  discardBody(maxBytes: number): void {
    void discardBody(this.#request, maxBytes);
  }
}

/**
 * A `node:http` request as the HTTP flow reads it: headers read from `req.headers`, the body
 * into one Buffer (`readNodeBody`, `discardNodeBody`); no web object is built, and no closure
 * per request (the view is one object whose methods live on its prototype).
 */
export function nodeRequestView(req: IncomingMessage): HttpRequestView {
  return new NodeRequestView(req);
}

/** `nodeRequestView`'s view (the native shell extends it). */
export class NodeRequestView implements HttpRequestView {
  readonly #req: IncomingMessage;

  constructor(req: IncomingMessage) {
    this.#req = req;
  }

  get method(): string {
    return this.#req.method ?? 'GET';
  }

  header(name: string): string | null {
    const value = this.#req.headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  readBody(limitBytes: number): Promise<BodyRead> {
    return readNodeBody(this.#req, limitBytes);
  }

  discardBody(maxBytes: number): void {
    discardNodeBody(this.#req, maxBytes);
  }
}
