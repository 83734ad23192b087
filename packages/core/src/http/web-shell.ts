import type { HttpAnswer, HttpReply } from './http-answer.js';
import { type HttpEndpoint, serveHttp } from './http-flow.js';
import { webRequestView } from './request-view.js';

/** A web-standard HTTP handler, as HTTP adapters expose (Hono, Next, workers, `toNodeListener`). */
export type FetchHandler = (request: Request) => Promise<Response>;

function headersOf(answer: HttpAnswer): Record<string, string> {
  const headers: Record<string, string> = { ...answer.headers };
  if (answer.contentType !== undefined) headers['content-type'] = answer.contentType;
  return headers;
}

/**
 * A body that runs `onDelivered` once the server reads it to send it, or cancels it; nothing runs
 * for an answer nobody reads.
 */
function deliveredBody(text: string, onDelivered: () => void): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        controller.enqueue(bytes);
        controller.close();
        onDelivered();
      },
      cancel() {
        onDelivered();
      },
    },
    { highWaterMark: 0 },
  );
}

/** An `HttpReply` as a web `Response` (a `Response` passes through). */
export function toResponse(reply: HttpReply): Response {
  if (reply instanceof Response) return reply;
  const headers = headersOf(reply);
  if (reply.onDelivered === undefined || reply.body === undefined) {
    const response = new Response(reply.body ?? null, { status: reply.status, headers });
    reply.onDelivered?.();
    return response;
  }
  headers['content-length'] = String(Buffer.byteLength(reply.body));
  return new Response(deliveredBody(reply.body, reply.onDelivered), {
    status: reply.status,
    headers,
  });
}

/**
 * The web-standard shell over `serveHttp`: a `(Request) => Promise<Response>` giving the same
 * answers, in the same order, as the native listener. Never rejects.
 */
export function createFetchHandler<P>(endpoint: HttpEndpoint<P>): FetchHandler {
  return async (request) => toResponse(await serveHttp(endpoint, webRequestView(request)));
}
