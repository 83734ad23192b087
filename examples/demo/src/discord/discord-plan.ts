import type { DemoConfig } from '../config/demo-config.js';
import { planTraffic } from '../simulator/traffic-plan.js';

/**
 * What the Discord simulator sends: a mention of the bot over the gateway (`MESSAGE_CREATE`), or a
 * signed HTTP interaction: the `/ask` command, a click of the `approve` button, or an autocomplete
 * of `/ask`'s `question` option.
 */
export type DiscordKind = 'message' | 'command' | 'click' | 'suggestion';

/** The kinds that arrive as HTTP interactions (the rest come over the gateway). */
export const INTERACTION_KINDS: readonly DiscordKind[] = Object.freeze([
  'command',
  'click',
  'suggestion',
]);

/** One planned Discord delivery, `atMs` after the start of the flood. Never redelivered. */
export interface DiscordItem {
  readonly kind: DiscordKind;
  /** The message or interaction id (a snowflake). */
  readonly id: string;
  readonly atMs: number;
}

/**
 * Plans the Discord flood with the Slack plan's burst shape (its own seed, the same duration):
 * `discordMessages` mentions, `discordCommands` `/ask`, `discordClicks` button clicks and
 * `discordSuggestions` autocompletes, the autocompletes spread evenly among the commands' slots
 * (a user types in the option, then sends).
 */
export function planDiscordTraffic(config: DemoConfig): DiscordItem[] {
  const typed = config.discordCommands + config.discordSuggestions;
  if (config.discordMessages + typed + config.discordClicks === 0) return [];
  const plan = planTraffic({
    ...config,
    events: config.discordMessages,
    commands: typed,
    clicks: config.discordClicks,
    seed: (config.seed + 0x0d15c0) >>> 0,
  });
  let typedSeen = 0;
  const items: DiscordItem[] = [];
  for (const item of plan.items) {
    let kind: DiscordKind;
    if (item.kind === 'event') {
      kind = 'message';
    } else if (item.kind === 'click') {
      kind = 'click';
    } else {
      const j = typedSeen;
      typedSeen += 1;
      const s = config.discordSuggestions;
      kind =
        Math.floor(((j + 1) * s) / typed) > Math.floor((j * s) / typed) ? 'suggestion' : 'command';
    }
    items.push({
      kind,
      id: String(810_000_000_000_000_000n + BigInt(items.length + 1)),
      atMs: item.atMs,
    });
  }
  return items;
}

/** How many items of each kind `plan` holds. */
export function countKinds(plan: readonly DiscordItem[]): Record<DiscordKind, number> {
  const counts: Record<DiscordKind, number> = { message: 0, command: 0, click: 0, suggestion: 0 };
  for (const item of plan) counts[item.kind] += 1;
  return counts;
}
