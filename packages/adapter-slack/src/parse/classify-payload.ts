import { SlackRequestError } from '../errors.js';
import { INTERACTIVE_SHAPES } from '../shapes.js';
import type {
  SlackAppRateLimited,
  SlackEventCallback,
  SlackInteractive,
  SlackSlashCommand,
} from './payload-types.js';

/**
 * Where a decoded payload came from, in Socket Mode's vocabulary (its envelope `type`): the Events
 * API, a slash command, or an interactivity payload. Over HTTP: a JSON body, a form with
 * `command`, a form with `payload=<json>`.
 */
export type SlackPayloadSource = 'events_api' | 'slash_commands' | 'interactive';

/** A verified, decoded payload, classified. */
export type SlackInbound =
  | { readonly type: 'url_verification'; readonly challenge: string }
  | { readonly type: 'event_callback'; readonly body: SlackEventCallback }
  | { readonly type: 'app_rate_limited'; readonly body: SlackAppRateLimited }
  | { readonly type: 'slash_command'; readonly body: SlackSlashCommand }
  | { readonly type: 'interactive'; readonly payload: SlackInteractive };

/** Interactive payload types the adapter dispatches: the interactive shapes. */
const INTERACTIVE_TYPES: ReadonlySet<string> = new Set(INTERACTIVE_SHAPES);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function classifyEventsApi(body: unknown): SlackInbound {
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

function classifySlashCommand(fields: unknown): SlackInbound {
  if (!isRecord(fields) || typeof fields.command !== 'string' || fields.command.length === 0) {
    throw new SlackRequestError('slash command without a command');
  }
  return { type: 'slash_command', body: fields as unknown as SlackSlashCommand };
}

function classifyInteractive(payload: unknown): SlackInbound {
  if (!isRecord(payload) || typeof payload.type !== 'string') {
    throw new SlackRequestError('payload field is not an interactive payload');
  }
  if (!INTERACTIVE_TYPES.has(payload.type)) {
    throw new SlackRequestError(`unknown interactive payload type ${JSON.stringify(payload.type)}`);
  }
  return { type: 'interactive', payload: payload as SlackInteractive };
}

/**
 * Classifies a decoded payload (no body decoding here: HTTP decodes forms and JSON first, Socket
 * Mode delivers decoded JSON). Throws `SlackRequestError` for anything it cannot classify (HTTP
 * answers it 400).
 */
export function classifySlackPayload(source: SlackPayloadSource, payload: unknown): SlackInbound {
  switch (source) {
    case 'events_api':
      return classifyEventsApi(payload);
    case 'slash_commands':
      return classifySlashCommand(payload);
    case 'interactive':
      return classifyInteractive(payload);
    default:
      throw new SlackRequestError(`unknown payload source ${JSON.stringify(source)}`);
  }
}
