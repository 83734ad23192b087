import { SLACK_RETRY_DELAYS_MS } from '@rt/testing/slack';
import type { DemoConfig } from '../config/demo-config.js';
import { createRandom } from '../config/random.js';

/** What the simulator sends: an Events API mention, a slash command or a button click. */
export type TrafficKind = 'event' | 'command' | 'click';

/** One planned delivery (first attempt), `atMs` after the start of the flood. */
export interface PlannedItem {
  readonly kind: TrafficKind;
  /** `Ev...` for events, the trigger id for commands and clicks. Unique per run. */
  readonly id: string;
  readonly atMs: number;
  readonly burst: number;
}

/** The flood: bursts of deliveries, each spread over a short window. */
export interface TrafficPlan {
  readonly bursts: number;
  readonly spacingMs: number;
  /** Sorted by `atMs`. */
  readonly items: readonly PlannedItem[];
}

/** Sum of Slack's retry delays at this time scale: how long Slack keeps an event alive. */
export function retryHorizonMs(timeScale: number): number {
  return SLACK_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0) / timeScale;
}

/**
 * Plans the flood: the events, commands and clicks in random order, cut into bursts. Each burst
 * holds at most about twice `maxDetached` deliveries, so a bot with a free bound admits
 * `maxDetached` at once and the rest within Slack's retries (the +5 min wave then fits in the
 * bound). Bursts are spaced by the duration; when the duration allows it they are at least
 * Slack's (compressed) retry horizon plus the slowest handler apart, so one burst is drained
 * before the next arrives. A shorter duration overlaps them, and Slack may then run out of
 * retries for some events: the summary reports that as "exhausted". Burst sizes vary by +-20%;
 * each burst is spread over 1/24 of the spacing.
 */
export function planTraffic(config: DemoConfig): TrafficPlan {
  const random = createRandom(config.seed);
  const kinds: TrafficKind[] = [
    ...Array<TrafficKind>(config.events).fill('event'),
    ...Array<TrafficKind>(config.commands).fill('command'),
    ...Array<TrafficKind>(config.clicks).fill('click'),
  ];
  for (let i = kinds.length - 1; i > 0; i -= 1) {
    const j = random.int(0, i);
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  const gapMs = retryHorizonMs(config.timeScale) + 1.5 * config.handlerMs;
  const bySize = Math.ceil(kinds.length / (1.9 * config.maxDetached));
  const byTime = Math.floor(config.durationMs / gapMs);
  const bursts = Math.max(1, Math.min(kinds.length, Math.max(bySize, byTime)));
  const spacingMs = config.durationMs / bursts;
  const spreadMs = spacingMs / 24;
  const weights = Array.from({ length: bursts }, () => 0.8 + random.next() * 0.4);
  const total = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.floor((w / total) * kinds.length));
  let missing = kinds.length - sizes.reduce((a, b) => a + b, 0);
  for (let i = 0; missing > 0; i = (i + 1) % bursts, missing -= 1) sizes[i]! += 1;
  const items: PlannedItem[] = [];
  const seqs: Record<TrafficKind, number> = { event: 0, command: 0, click: 0 };
  const prefix: Record<TrafficKind, string> = { event: 'Ev', command: 'cmd.', click: 'clk.' };
  let next = 0;
  sizes.forEach((size, burst) => {
    for (let i = 0; i < size; i += 1) {
      const kind = kinds[next]!;
      next += 1;
      seqs[kind] += 1;
      items.push({
        kind,
        id: `${prefix[kind]}${String(seqs[kind]).padStart(5, '0')}`,
        atMs: Math.round(burst * spacingMs + 250 + random.next() * spreadMs),
        burst,
      });
    }
  });
  items.sort((a, b) => a.atMs - b.atMs);
  return { bursts, spacingMs, items };
}
