import { discardBody, readBodyUpTo } from '@rt/core/adapter';
import type { SlackCoreDeps } from '../inbound/deps.js';
import type { HttpRequestView } from './read-signed-body.js';
import { serveSlackHttp } from './serve-http.js';
import { toResponse } from './to-response.js';

/** A web `Request` as the neutral HTTP flow reads it. */
function viewOf(request: Request): HttpRequestView {
  return {
    method: request.method,
    header: (name) => request.headers.get(name),
    readBody: (limitBytes) => readBodyUpTo(request, limitBytes),
    discardBody: (maxBytes) => void discardBody(request, maxBytes),
  };
}

/**
 * Builds the adapter's web-standard handler (Hono, Next, workers, `toNodeListener`): it only
 * converts between web `Request`/`Response` and `serveSlackHttp`, which says what is answered
 * and in which order. Never rejects.
 */
export function createRequestHandler(deps: SlackCoreDeps): (request: Request) => Promise<Response> {
  return async (request) => toResponse(await serveSlackHttp(deps, viewOf(request)));
}
