import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InstallAnswer, InstallRequest } from '../http/install-http.js';

/**
 * The narrow slice of `IncomingMessage` and `ServerResponse` that `@slack/oauth`'s
 * `InstallProvider` uses (`url`, `headers`; `setHeader`, `getHeader`, `writeHead`, `end`), over
 * an `InstallRequest` and into an `InstallAnswer`, so its install path and callback run unchanged
 * behind both the node and the web shell.
 */
export class ResponseRecorder {
  #status = 200;
  readonly #headers = new Map<string, string | string[]>();
  #body = '';
  #ended = false;

  get ended(): boolean {
    return this.#ended;
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.#headers.set(
      name.toLowerCase(),
      Array.isArray(value) ? [...(value as string[])] : String(value),
    );
    return this;
  }

  getHeader(name: string): string | string[] | undefined {
    return this.#headers.get(name.toLowerCase());
  }

  writeHead(status: number, headers?: Record<string, string | number | readonly string[]>): this {
    this.#status = status;
    for (const [name, value] of Object.entries(headers ?? {})) this.setHeader(name, value);
    return this;
  }

  end(body?: string | Buffer): this {
    if (!this.#ended && body !== undefined) this.#body += body.toString();
    this.#ended = true;
    return this;
  }

  /** What was recorded, as an answer. */
  answer(): InstallAnswer {
    return { status: this.#status, headers: Object.fromEntries(this.#headers), body: this.#body };
  }

  /** This recorder typed as the `ServerResponse` the library expects. */
  asServerResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }
}

/** `request` typed as the `IncomingMessage` the library reads `url` and `headers` from. */
export function asIncomingMessage(request: InstallRequest): IncomingMessage {
  // The library reads the query with `new URL(url, 'https://' + host)`: a fixed host keeps a
  // hostile Host header from turning a bad request into an unexpected failure.
  const headers = { ...request.headers, host: 'install.invalid' };
  return { url: request.url, method: request.method, headers } as unknown as IncomingMessage;
}
