/**
 * What the HTTP handler sends back for one delivery: the acknowledgement, and optionally a
 * follow-up call carrying a visible busy signal (sent after the acknowledgement is built).
 */
export interface Answer {
  readonly response: Response;
  readonly followUp?: FollowUp;
}

/** A best-effort busy signal delivered outside the acknowledgement. */
export type FollowUp =
  /** POST `body` (JSON) to an interaction's `response_url`. */
  | { readonly kind: 'response_url'; readonly url: string; readonly body: Record<string, unknown> }
  /** Call `views.open` or `views.push` with the interaction's single-use `trigger_id`. */
  | {
      readonly kind: 'views.open' | 'views.push';
      readonly triggerId: string;
      readonly view: Record<string, unknown>;
    };

/** 200 with an empty body: Slack's plain acknowledgement. */
export function emptyAck(): Response {
  return new Response(null, { status: 200 });
}

/** 200 (or `status`) with a JSON body. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

/** A short plain-text response (errors, refusals). */
export function textResponse(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
