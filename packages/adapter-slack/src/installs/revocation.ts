import type { RtEvent } from '@rt/core';
import type { SlackEventCallback } from '../parse/payload-types.js';
import type { SlackRevocation } from './installation-source.js';

function idsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((id): id is string => typeof id === 'string' && id.length > 0);
}

/**
 * The revocation an Events API delivery carries (`app_uninstalled`, `tokens_revoked` with its
 * `tokens.bot` and `tokens.oauth` user ids), else `undefined`.
 */
export function revocationOf(event: RtEvent): SlackRevocation | undefined {
  if (event.shape !== 'event_callback') return undefined;
  const inner = (event.payload as SlackEventCallback | undefined)?.event;
  if (inner?.type === 'app_uninstalled') return { kind: 'app_uninstalled' };
  if (inner?.type !== 'tokens_revoked') return undefined;
  const tokens = (inner.tokens ?? {}) as { bot?: unknown; oauth?: unknown };
  return { kind: 'tokens_revoked', botUserIds: idsOf(tokens.bot), userIds: idsOf(tokens.oauth) };
}
