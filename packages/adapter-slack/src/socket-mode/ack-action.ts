import type { SlackAck } from '../respond/answer.js';

/** What the Socket Mode transport sends back for one envelope. */
export type AckAction =
  /**
   * `ack({ envelope_id, payload })`. `dropped` says why an answer body was not sent: the envelope
   * does not accept a response payload, or it was not a JSON object. `invalid`: the payload could
   * not be understood (acked so Slack does not redeliver what would fail alike).
   */
  | {
      readonly kind: 'ack';
      readonly payload?: Record<string, unknown>;
      readonly dropped?: string;
      readonly invalid?: string;
    }
  /** No ack: Slack redelivers an `events_api` envelope (to this or another connection). */
  | { readonly kind: 'withhold'; readonly reason?: string };

const PLAIN: AckAction = Object.freeze({ kind: 'ack' });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withPayload(body: unknown, acceptsPayload: boolean): AckAction {
  if (!isRecord(body)) return { kind: 'ack', dropped: 'the answer is not a JSON object' };
  if (!acceptsPayload) return { kind: 'ack', dropped: 'the envelope accepts no response payload' };
  return { kind: 'ack', payload: body };
}

async function fromResponse(response: Response, acceptsPayload: boolean): Promise<AckAction> {
  const text = await response.text();
  if (text.length === 0) return PLAIN;
  if (response.headers.get('content-type')?.toLowerCase().includes('json')) {
    try {
      return withPayload(JSON.parse(text), acceptsPayload);
    } catch {
      return { kind: 'ack', dropped: 'the handler returned a Response with invalid JSON' };
    }
  }
  return withPayload({ text }, acceptsPayload);
}

/**
 * Writes a neutral acknowledgement as a Socket Mode ack: `empty` a plain ack; `json` the ack
 * carrying the body (the slash command reply, `response_action`, suggestion options) when the
 * envelope accepts a response payload; `text` a `{ text }` payload likewise; `invalid` a plain ack
 * (noted); `retry` no ack at all, so Slack redelivers the `events_api` envelope; `response` (a web
 * `Response` from a sync handler) its JSON body, or its text as `{ text }`. Synchronous except
 * for `response`, whose body is read first (a promise that never rejects: a body that cannot be
 * read becomes a plain ack, noted as dropped).
 */
export function ackActionOf(
  ack: SlackAck,
  acceptsPayload: boolean,
): AckAction | Promise<AckAction> {
  switch (ack.kind) {
    case 'empty':
      return PLAIN;
    case 'json':
      return withPayload(ack.body, acceptsPayload);
    case 'text':
      return withPayload({ text: ack.text }, acceptsPayload);
    case 'invalid':
      return { kind: 'ack', invalid: ack.reason };
    case 'retry':
      return ack.reason === undefined
        ? { kind: 'withhold' }
        : { kind: 'withhold', reason: ack.reason };
    case 'response':
      return fromResponse(ack.response, acceptsPayload).catch(
        (): AckAction => ({
          kind: 'ack',
          dropped: 'the handler returned a Response whose body could not be read',
        }),
      );
  }
}
