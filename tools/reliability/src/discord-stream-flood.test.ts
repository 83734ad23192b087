import { DEFAULT_DISCORD_ADAPTER_OPTIONS } from '@rt/adapter-discord';
import { buildChatInputCommand, type DiscordTestInteraction } from '@rt/testing/discord';
import { afterEach, describe, expect, it } from 'vitest';
import { DISCORD_BED_TOKEN, type DiscordBed, startDiscordBed } from './support/discord-bed.js';
import { recordFigures, sized } from './support/figures.js';
import { planFlood } from './support/slack-flood.js';
import { checkStreams, StreamLedger } from './support/stream-ledger.js';

const MAX_DETACHED = 16;
const GUILDS = ['700000000000000001', '700000000000000002', '700000000000000003'];
const { busyText } = DEFAULT_DISCORD_ADAPTER_OPTIONS;

describe('a Discord HTTP interactions flood of streamed replies far above the admission bound', () => {
  let bed: DiscordBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('streams every accepted command to its whole text through the per-interaction rate limit, or refuses it visibly', async () => {
    bed = await startDiscordBed({
      runtime: { maxDetached: MAX_DETACHED, concurrency: 'queue' },
      // Edits every 100 ms against 3 writes a second per interaction: the fake answers 429s.
      adapter: { stream: { editIntervalMs: 100 } },
      rest: { messageRate: { limit: 3, windowMs: 1000 } },
    });
    const ledger = new StreamLedger();
    bed.runtime.onCommand(
      'flood',
      ledger.handler({ keyOf: (event) => event.id, chunks: 12, gapMs: 20 }),
    );
    const plan = planFlood({
      events: 0,
      commands: sized(96, 960),
      tenants: GUILDS,
      hotShare: 0.34,
      burstSize: 2 * MAX_DETACHED,
      burstGapMs: 1500,
      seed: 29,
    });
    const b = bed;
    const answers: { interaction: DiscordTestInteraction; type: number | undefined }[] = [];
    const start = performance.now();
    const sends: Promise<void>[] = [];
    for (const [i, item] of plan.entries()) {
      const wait = start + item.atMs - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const interaction = buildChatInputCommand({
        id: String(800_000_000_000_000_000n + BigInt(i)),
        guildId: item.tenant,
        channelId: `61000000000000000${i % 10}`,
        name: 'flood',
      });
      const body = JSON.stringify(interaction);
      sends.push(
        fetch(b.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...b.signer.sign(body) },
          body,
        }).then(async (response) => {
          const text = await response.text();
          b.log.add(text);
          const answer = JSON.parse(text) as { type?: number; data?: { content?: string } };
          expect(response.status).toBe(200);
          if (answer.type !== 5) expect(answer.data?.content).toBe(busyText);
          answers.push({ interaction, type: answer.type });
        }),
      );
    }
    await Promise.all(sends);
    await b.runtime.shutdown({ graceMs: 30_000 });
    await b.adapter.drain();

    const stats = b.runtime.stats();
    // Each interaction's reply: its `@original` and any follow-ups, under its token.
    const shown = new Map<string, string>();
    for (const { interaction } of answers) {
      const text = b.rest.messages
        .all()
        .filter((m) => m.channel === `webhook:${interaction.token}`)
        .map((m) => m.content)
        .join('');
      if (text.length > 0) shown.set(interaction.id, text);
    }
    const { violations, figures } = checkStreams({
      ledger,
      shown,
      observations: b.log.observations,
      allowed: ['completed'],
    });
    expect(violations).toEqual([]);
    const accepted = answers.filter((a) => a.type === 5);
    expect(accepted.length).toBe(stats.accepted);
    expect(figures.streams).toBe(stats.accepted);
    expect(ledger.handled.total).toBe(stats.accepted);
    expect(stats.outcomes.completed).toBe(stats.accepted);
    // Refused visibly, never streamed to.
    for (const answer of answers.filter((a) => a.type !== 5)) {
      expect(shown.has(answer.interaction.id)).toBe(false);
    }
    expect(stats.outcomes['admission-rejected']).toBeGreaterThan(0);
    // The fake refused writes over its limit (429 with Retry-After), and each stream still ended
    // whole: @discordjs/rest waited those out, or handed them to the scheduler.
    expect(b.rest.messages.refused).toBeGreaterThan(0);
    expect(ledger.peakActive).toBeLessThanOrEqual(MAX_DETACHED);
    expect(stats.detachedHighWater).toBe(MAX_DETACHED);
    expect(b.log.leaks([DISCORD_BED_TOKEN])).toEqual([]);
    expect(b.listenerErrors).toEqual([]);
    recordFigures('discord-stream-flood', {
      ...figures,
      sent: plan.length,
      admitted: stats.accepted,
      rejected: stats.outcomes['admission-rejected'],
      refused429: b.rest.messages.refused,
      peakActiveStreams: ledger.peakActive,
      maxDetached: MAX_DETACHED,
    });
  });
});
