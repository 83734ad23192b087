import { randomUUID } from 'node:crypto';
import type { SlackTestPayload } from './payload.js';

/** The envelope types Slack sends over Socket Mode that carry work. */
export type FakeEnvelopeType = 'events_api' | 'slash_commands' | 'interactive';

/** One envelope as the fake sent it on a socket (Slack's wire format). */
export interface FakeEnvelope {
  /** Fresh per sending: a redelivery of the same event has a new one. */
  readonly envelope_id: string;
  readonly type: FakeEnvelopeType;
  readonly accepts_response_payload: boolean;
  /** The Events API body, the slash command's fields, or the interactive payload. */
  readonly payload: Record<string, unknown>;
  /** `events_api` only: 0 for the first delivery, 1..3 for redeliveries. */
  readonly retry_attempt?: number;
  /** `events_api` only: why it was redelivered (`timeout`), empty on the first delivery. */
  readonly retry_reason?: string;
}

/** An envelope to send, before the fake gives it an id. */
export interface FakeEnvelopeInput {
  readonly type: FakeEnvelopeType;
  readonly payload: Record<string, unknown>;
  /** Default: true for slash commands, `view_submission` and `block_suggestion`; else false. */
  readonly acceptsResponsePayload?: boolean;
}

/** Interactive types whose ack may carry a response (Slack sets `accepts_response_payload`). */
const ANSWERED_INTERACTIVE = new Set(['view_submission', 'block_suggestion']);

function isTestPayload(value: SlackTestPayload | FakeEnvelopeInput): value is SlackTestPayload {
  return typeof (value as SlackTestPayload).contentType === 'string';
}

/**
 * The envelope input for a payload built with the `@rt/testing/slack` builders: JSON bodies are
 * `events_api` (including `app_rate_limited`, which has no inner event), form bodies with a
 * `command` are `slash_commands`, the rest `interactive`.
 */
export function envelopeInputOf(value: SlackTestPayload | FakeEnvelopeInput): FakeEnvelopeInput {
  if (!isTestPayload(value)) return value;
  const data = value.data as Record<string, unknown>;
  if (value.contentType.startsWith('application/json'))
    return { type: 'events_api', payload: data };
  if (typeof data.command === 'string') return { type: 'slash_commands', payload: data };
  return { type: 'interactive', payload: data };
}

function acceptsResponse(input: FakeEnvelopeInput): boolean {
  if (input.acceptsResponsePayload !== undefined) return input.acceptsResponsePayload;
  if (input.type === 'slash_commands') return true;
  return input.type === 'interactive' && ANSWERED_INTERACTIVE.has(String(input.payload.type));
}

/** A fresh envelope for `input`; `retry` is set for redeliveries of an `events_api` envelope. */
export function envelopeOf(
  input: FakeEnvelopeInput,
  retry: { attempt: number; reason: string } = { attempt: 0, reason: '' },
): FakeEnvelope {
  const base = {
    envelope_id: randomUUID(),
    type: input.type,
    accepts_response_payload: acceptsResponse(input),
    payload: input.payload,
  };
  if (input.type !== 'events_api') return base;
  return { ...base, retry_attempt: retry.attempt, retry_reason: retry.reason };
}

/** The `event_id` of an `events_api` envelope, if its payload has one. */
export function eventIdOf(envelope: FakeEnvelope): string | undefined {
  const id = envelope.payload.event_id;
  return envelope.type === 'events_api' && typeof id === 'string' ? id : undefined;
}

/** What a client's acknowledgement frame said. */
export interface ParsedAck {
  readonly envelopeId: string;
  /** The `payload` field; `undefined` when the frame had none. */
  readonly payload: Record<string, unknown> | undefined;
}

/** Parses a frame from the client: an ack `{ envelope_id, payload? }`, else `undefined`. */
export function parseAck(raw: string): ParsedAck | undefined {
  let frame: unknown;
  try {
    frame = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof frame !== 'object' || frame === null) return undefined;
  const { envelope_id: envelopeId, payload } = frame as Record<string, unknown>;
  if (typeof envelopeId !== 'string') return undefined;
  const body =
    typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : undefined;
  return { envelopeId, payload: body };
}
