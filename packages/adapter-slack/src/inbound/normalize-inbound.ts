import { normalizeCommand } from '../normalize/normalize-command.js';
import { normalizeEventCallback } from '../normalize/normalize-event-callback.js';
import { normalizeInteractive } from '../normalize/normalize-interactive.js';
import type { NormalizeContext, Normalized } from '../normalize/normalized.js';
import type { SlackInbound } from '../parse/classify-payload.js';

/** A classified payload that can be dispatched. */
export type DispatchableInbound = Extract<
  SlackInbound,
  { type: 'event_callback' | 'slash_command' | 'interactive' }
>;

/** Normalises a dispatchable payload with the normaliser of its type. */
export function normalizeInbound(inbound: DispatchableInbound, ctx: NormalizeContext): Normalized {
  switch (inbound.type) {
    case 'event_callback':
      return normalizeEventCallback(inbound.body, ctx);
    case 'slash_command':
      return normalizeCommand(inbound.body, ctx);
    case 'interactive':
      return normalizeInteractive(inbound.payload, ctx);
  }
}
