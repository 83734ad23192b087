import { SlackRequestError } from '../errors.js';
import type { SlackPayloadSource } from '../parse/classify-payload.js';

/** A request body decoded into the payload it carries, and where it came from. */
export interface DecodedBody {
  readonly source: SlackPayloadSource;
  readonly payload: unknown;
}

function isForm(contentType: string | null, rawBody: string): boolean {
  if (contentType !== null) {
    return contentType.toLowerCase().startsWith('application/x-www-form-urlencoded');
  }
  return !rawBody.trimStart().startsWith('{');
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SlackRequestError(`${what} is not valid JSON`, { cause: error });
  }
}

/**
 * True for Slack's certificate probe: a form body with `ssl_check=1`. Slack sends it unsigned, so
 * it is recognised before verification and answered 200 without dispatch.
 */
export function isSslCheck(rawBody: string, contentType: string | null): boolean {
  if (!isForm(contentType, rawBody)) return false;
  return new URLSearchParams(rawBody).get('ssl_check') === '1';
}

/**
 * Decodes a verified body: JSON for the Events API, `application/x-www-form-urlencoded` for slash
 * commands (the fields) and interactivity (`payload=<json>`). Without a content type it sniffs
 * for a JSON object. Throws `SlackRequestError` (answered 400) for a body it cannot decode; the
 * payload itself is classified by `classifySlackPayload`.
 */
export function decodeSlackBody(rawBody: string, contentType: string | null): DecodedBody {
  if (!isForm(contentType, rawBody)) {
    return { source: 'events_api', payload: parseJson(rawBody, 'request body') };
  }
  const form = new URLSearchParams(rawBody);
  const payload = form.get('payload');
  if (payload !== null) {
    return { source: 'interactive', payload: parseJson(payload, 'payload field') };
  }
  const command = form.get('command');
  if (command !== null && command.length > 0) {
    return { source: 'slash_commands', payload: Object.fromEntries(form.entries()) };
  }
  throw new SlackRequestError('form body has neither payload nor command');
}
