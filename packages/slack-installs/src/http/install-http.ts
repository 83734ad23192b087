import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * One request to an install handler, transport-neutral: the method, the request target (path and
 * query, as `IncomingMessage.url` has it) and the headers (lower-case names; `cookie` carries the
 * browser's cookies).
 */
export interface InstallRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

/** The answer of an install handler: a status, headers (`set-cookie` may repeat) and a body. */
export interface InstallAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body: string;
}

/** A transport-neutral install handler; never rejects. */
export type InstallHandler = (request: InstallRequest) => Promise<InstallAnswer>;

/** The node `IncomingMessage` as an `InstallRequest` (repeated headers joined as node does). */
export function installRequestOfNode(req: IncomingMessage): InstallRequest {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name] = Array.isArray(value) ? value.join(name === 'cookie' ? '; ' : ', ') : value;
  }
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers };
}

/** The web `Request` as an `InstallRequest`. */
export function installRequestOfWeb(request: Request): InstallRequest {
  const url = new URL(request.url);
  const headers: Record<string, string | undefined> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers.host ??= url.host;
  return { method: request.method, url: `${url.pathname}${url.search}`, headers };
}

/** Writes `answer` to a node `ServerResponse`. */
export function writeNodeAnswer(res: ServerResponse, answer: InstallAnswer): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) {
    res.setHeader(name, typeof value === 'string' ? value : [...value]);
  }
  res.end(answer.body);
}

/** `answer` as a web `Response`. */
export function webResponseOf(answer: InstallAnswer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of typeof value === 'string' ? [value] : value) headers.append(name, one);
  }
  const bodyless = answer.status === 204 || answer.status === 304;
  return new Response(bodyless ? null : answer.body, { status: answer.status, headers });
}

/** The node shell: `http.createServer(nodeInstallListener(handler))`. Never throws. */
export function nodeInstallListener(
  handler: InstallHandler,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    req.resume();
    handler(installRequestOfNode(req)).then(
      (answer) => writeNodeAnswer(res, answer),
      () => {
        res.statusCode = 500;
        res.end();
      },
    );
  };
}

/** The web shell: `(request: Request) => Promise<Response>`. Never rejects. */
export function webInstallHandler(
  handler: InstallHandler,
): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      return webResponseOf(await handler(installRequestOfWeb(request)));
    } catch {
      return new Response(null, { status: 500 });
    }
  };
}
