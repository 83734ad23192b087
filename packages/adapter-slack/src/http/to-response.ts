import type { HttpAnswer } from './http-answer.js';

/** An `HttpAnswer` as a web `Response` (a `Response` passes through). */
export function toResponse(answer: HttpAnswer | Response): Response {
  if (answer instanceof Response) return answer;
  const headers: Record<string, string> = { ...answer.headers };
  if (answer.contentType !== undefined) headers['content-type'] = answer.contentType;
  return new Response(answer.body ?? null, { status: answer.status, headers });
}
