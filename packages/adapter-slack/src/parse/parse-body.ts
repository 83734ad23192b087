import { SlackRequestError } from '../errors.js';
import type {
  SlackAppRateLimited,
  SlackEventCallback,
  SlackInteractive,
  SlackSlashCommand,
} from './payload-types.js';

/** A verified request body, classified. */
export type SlackInbound =
  | { readonly type: 'url_verification'; readonly challenge: string }
  | { readonly type: 'event_callback'; readonly body: SlackEventCallback }
  | { readonly type: 'app_rate_limited'; readonly body: SlackAppRateLimited }
  | { readonly type: 'slash_command'; readonly body: SlackSlashCommand }
  | { readonly type: 'interactive'; readonly payload: SlackInteractive };

/** Interactive payload types the adapter dispatches. */
const INTERACTIVE_TYPES = new Set([
  'block_actions',
  'message_action',
  'shortcut',
  'view_submission',
  'view_closed',
  'block_suggestion',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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

function parseJsonBody(rawBody: string): SlackInbound {
  const body = parseJson(rawBody, 'request body');
  if (!isRecord(body)) throw new SlackRequestError('request body is not a JSON object');
  switch (body.type) {
    case 'url_verification':
      if (typeof body.challenge !== 'string') {
        throw new SlackRequestError('url_verification without a challenge');
      }
      return { type: 'url_verification', challenge: body.challenge };
    case 'event_callback':
      if (!isRecord(body.event) || typeof body.event.type !== 'string') {
        throw new SlackRequestError('event_callback without an inner event');
      }
      if (typeof body.event_id !== 'string' || body.event_id.length === 0) {
        throw new SlackRequestError('event_callback without an event_id');
      }
      return { type: 'event_callback', body: body as unknown as SlackEventCallback };
    case 'app_rate_limited':
      return { type: 'app_rate_limited', body: body as unknown as SlackAppRateLimited };
    default:
      throw new SlackRequestError(`unknown Events API payload type ${JSON.stringify(body.type)}`);
  }
}

function parseFormBody(rawBody: string): SlackInbound {
  const form = new URLSearchParams(rawBody);
  const payload = form.get('payload');
  if (payload !== null) {
    const parsed = parseJson(payload, 'payload field');
    if (!isRecord(parsed) || typeof parsed.type !== 'string') {
      throw new SlackRequestError('payload field is not an interactive payload');
    }
    if (!INTERACTIVE_TYPES.has(parsed.type)) {
      throw new SlackRequestError(
        `unknown interactive payload type ${JSON.stringify(parsed.type)}`,
      );
    }
    return { type: 'interactive', payload: parsed as SlackInteractive };
  }
  const command = form.get('command');
  if (command !== null && command.length > 0) {
    return {
      type: 'slash_command',
      body: Object.fromEntries(form.entries()) as SlackSlashCommand,
    };
  }
  throw new SlackRequestError('form body has neither payload nor command');
}

/**
 * Parses a verified body: JSON for the Events API, `application/x-www-form-urlencoded` for slash
 * commands and interactivity (`payload=<json>`). Throws `SlackRequestError` (answered 400) for
 * anything it cannot classify. Without a content type it sniffs for a JSON object.
 */
export function parseSlackBody(rawBody: string, contentType: string | null): SlackInbound {
  return isForm(contentType, rawBody) ? parseFormBody(rawBody) : parseJsonBody(rawBody);
}
