import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** The parts of a web `Request` that are read straight from the `IncomingMessage`. */
const OWN = new Set(['constructor', 'method', 'url', 'headers', 'signal']);

/**
 * A web `Request` for a `node:http` request, built on demand: `method` and `url` are read from
 * the `IncomingMessage`, `headers` is built on first read, the abort `signal` (aborting when the
 * client goes away before the answer is written) on first read, and the real `Request` (with the
 * body streamed from `req`) only when something else is used (`body`, `text()`, `clone()`...). A
 * handler that answers from the method and headers alone (a 405, a 401 on a missing signature)
 * builds no `Request`, no `Headers` copy and no web stream. It passes `instanceof Request`.
 */
class LazyRequest {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  #url: string | undefined;
  #headers: Headers | undefined;
  #controller: AbortController | undefined;
  #real: Request | undefined;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.#req = req;
    this.#res = res;
  }

  get method(): string {
    return this.#req.method ?? 'GET';
  }

  get url(): string {
    this.#url ??= new URL(
      this.#req.url ?? '/',
      `http://${this.#req.headers.host ?? 'localhost'}`,
    ).href;
    return this.#url;
  }

  get headers(): Headers {
    if (this.#headers === undefined) {
      const headers = new Headers();
      for (const [name, value] of Object.entries(this.#req.headers)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else headers.set(name, value);
      }
      this.#headers = headers;
    }
    return this.#headers;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      const res = this.#res;
      const onClose = () => {
        if (!res.writableFinished) controller.abort();
      };
      res.once('close', onClose);
      this.#controller = controller;
    }
    return this.#controller.signal;
  }

  /** The real `Request`, built once on first use of anything but the fields above. */
  real(): Request {
    if (this.#real === undefined) {
      const method = this.method;
      const hasBody = method !== 'GET' && method !== 'HEAD';
      this.#real = new Request(this.url, {
        method,
        headers: this.headers,
        signal: this.signal,
        ...(hasBody
          ? {
              body: Readable.toWeb(this.#req) as unknown as ReadableStream<Uint8Array>,
              duplex: 'half',
            }
          : {}),
      } as RequestInit);
    }
    return this.#real;
  }
}

// Everything else a `Request` has is forwarded to the real one, built then.
for (const name of Object.getOwnPropertyNames(Request.prototype)) {
  if (OWN.has(name)) continue;
  const descriptor = Object.getOwnPropertyDescriptor(Request.prototype, name);
  if (descriptor === undefined) continue;
  if (typeof descriptor.value === 'function') {
    Object.defineProperty(LazyRequest.prototype, name, {
      configurable: true,
      value(this: LazyRequest, ...args: unknown[]) {
        const real = this.real();
        return (real[name as keyof Request] as (...a: unknown[]) => unknown).apply(real, args);
      },
    });
  } else if (descriptor.get !== undefined) {
    Object.defineProperty(LazyRequest.prototype, name, {
      configurable: true,
      get(this: LazyRequest) {
        return this.real()[name as keyof Request];
      },
    });
  }
}
Object.setPrototypeOf(LazyRequest.prototype, Request.prototype);

/** A lazily built web `Request` for `req` (see `LazyRequest`). */
export function lazyRequest(req: IncomingMessage, res: ServerResponse): Request {
  return new LazyRequest(req, res) as unknown as Request;
}
