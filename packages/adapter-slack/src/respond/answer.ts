/**
 * The transport-neutral acknowledgement of one Slack delivery. Each transport writes it its own
 * way (`http/http-answer.ts` over HTTP, for the web handler and the native listener alike):
 * - `empty`: the plain acknowledgement (HTTP 200, empty body);
 * - `json`: an acknowledgement carrying `body` (HTTP 200 JSON; over Socket Mode, the ack payload);
 * - `text`: a plain-text answer (HTTP `status`, default 200; a sync handler's string);
 * - `invalid`: the payload could not be understood (HTTP 400 `Bad Request: <reason>`); nothing was
 *   dispatched, and a redelivery would fail alike;
 * - `retry`: nothing was marked; ask Slack to deliver again (HTTP 503, never `x-slack-no-retry`;
 *   over Socket Mode, the ack is withheld);
 * - `response`: a web `Response` a sync handler returned, sent as is over HTTP.
 */
export type SlackAck =
  | { readonly kind: 'empty' }
  | { readonly kind: 'json'; readonly body: unknown }
  | { readonly kind: 'text'; readonly text: string; readonly status?: number }
  | { readonly kind: 'invalid'; readonly reason: string }
  | { readonly kind: 'retry'; readonly reason?: string }
  | { readonly kind: 'response'; readonly response: Response };

/** The acknowledgement, and optionally a follow-up carrying a visible busy signal. */
export interface Answer {
  readonly ack: SlackAck;
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

/** Slack's plain acknowledgement. */
export const EMPTY_ACK: SlackAck = Object.freeze({ kind: 'empty' });

/** Ask Slack to redeliver (nothing was marked). */
export const RETRY_ACK: SlackAck = Object.freeze({ kind: 'retry' });

/** An acknowledgement carrying a JSON `body`. */
export function jsonAck(body: unknown): SlackAck {
  return { kind: 'json', body };
}

/** A plain-text answer (`status` defaults to 200 over HTTP). */
export function textAck(text: string, status?: number): SlackAck {
  return status === undefined ? { kind: 'text', text } : { kind: 'text', text, status };
}
