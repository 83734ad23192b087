import { InteractionType } from 'discord-api-types/v10';
import { DiscordRequestError } from '../errors.js';
import { type DiscordShape, shapeOfType } from '../shapes.js';
import type { DiscordInteraction } from './payload-types.js';

/** What a verified body holds. */
export type ParsedInteraction =
  /** Discord's endpoint check: answered `{"type":1}`, never dispatched, never gated. */
  | { readonly type: 'ping' }
  | {
      readonly type: 'interaction';
      readonly shape: DiscordShape;
      readonly interaction: DiscordInteraction;
    };

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** Throws `DiscordRequestError` unless `record[field]` is a non-empty string. */
function requireString(record: Record<string, unknown>, field: string, shape: DiscordShape): void {
  if (!nonEmptyString(record[field])) {
    throw new DiscordRequestError(`${shape} interaction has no ${field}`);
  }
}

/**
 * Parses a verified interaction body. Throws `DiscordRequestError` (answered 400, nothing
 * dispatched) for: bad or truncated JSON, a body that is not an object, a missing or unknown
 * `type`, and a dispatchable interaction without `id`, `token`, `application_id` or `data`.
 */
export function parseInteraction(body: string): ParsedInteraction {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new DiscordRequestError('body is not valid JSON', { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DiscordRequestError('body is not a JSON object');
  }
  const record = value as Record<string, unknown>;
  if (typeof record.type !== 'number') {
    throw new DiscordRequestError('interaction has no numeric type');
  }
  if (record.type === InteractionType.Ping) return { type: 'ping' };
  const shape = shapeOfType(record.type);
  if (shape === undefined) {
    throw new DiscordRequestError(`unknown interaction type ${record.type}`);
  }
  requireString(record, 'id', shape);
  requireString(record, 'token', shape);
  requireString(record, 'application_id', shape);
  if (typeof record.data !== 'object' || record.data === null || Array.isArray(record.data)) {
    throw new DiscordRequestError(`${shape} interaction has no data`);
  }
  return { type: 'interaction', shape, interaction: value as DiscordInteraction };
}
