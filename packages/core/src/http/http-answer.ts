/**
 * An HTTP answer before any transport writes it: a status, an optional text body with its content
 * type, and extra headers. The native listener writes it straight to the `ServerResponse`, the
 * web handler turns it into a `Response`. `onDelivered` (optional) runs once when the transport
 * hands the answer over: the native listener after `end()` (or at once when the client is already
 * gone), the web handler when the server reads the body, or cancels it (at once for an answer
 * without a body).
 */
export interface HttpAnswer {
  readonly status: number;
  readonly body?: string;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly onDelivered?: () => void;
}

/**
 * What an endpoint answers: an `HttpAnswer`, or a web `Response` an application built itself (a
 * sync handler's return value), which passes through either shell as is (the native listener
 * converts it, the rare path).
 */
export type HttpReply = HttpAnswer | Response;

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** 200 with an empty body. */
export const OK_ANSWER: HttpAnswer = Object.freeze({ status: 200 });

/** A bare 401: a signature refused (the reason goes to a notice, never to the client). */
export const UNAUTHORIZED_ANSWER: HttpAnswer = Object.freeze({ status: 401 });

/** 405 for anything but POST, with `allow: POST`. */
export const METHOD_NOT_ALLOWED_ANSWER: HttpAnswer = Object.freeze({
  status: 405,
  headers: Object.freeze({ allow: 'POST' }),
});

/** 413 `Payload Too Large`. */
export const PAYLOAD_TOO_LARGE_ANSWER: HttpAnswer = Object.freeze(
  textAnswer(413, 'Payload Too Large'),
);

/** 500 `Internal Server Error`: an unexpected failure (a bug). */
export const INTERNAL_ERROR_ANSWER: HttpAnswer = Object.freeze(
  textAnswer(500, 'Internal Server Error'),
);

/** A short plain-text answer (errors, refusals of the request itself). */
export function textAnswer(status: number, text: string): HttpAnswer {
  return { status, body: text, contentType: TEXT };
}

/** 400 `Bad Request: <reason>`: a body that could not be read or understood. */
export function badRequestAnswer(reason: string): HttpAnswer {
  return textAnswer(400, `Bad Request: ${reason}`);
}

/**
 * A JSON answer (`status` default 200): `body` serialised once, here. `onDelivered` as in
 * `HttpAnswer`.
 */
export function jsonAnswer(
  body: unknown,
  options: { readonly status?: number; readonly onDelivered?: () => void } = {},
): HttpAnswer {
  const status = options.status ?? 200;
  const text = JSON.stringify(body);
  const { onDelivered } = options;
  // Two literals rather than a spread: one object per answer.
  return onDelivered === undefined
    ? { status, body: text, contentType: JSON_TYPE }
    : { status, body: text, contentType: JSON_TYPE, onDelivered };
}
