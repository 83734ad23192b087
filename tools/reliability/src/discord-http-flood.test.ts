import { DEFAULT_DISCORD_ADAPTER_OPTIONS } from '@rt/adapter-discord';
import { ACCEPTED_OUTCOMES } from '@rt/core';
import {
  buildButton,
  buildChatInputCommand,
  type DiscordTestInteraction,
} from '@rt/testing/discord';
import { afterEach, describe, expect, it } from 'vitest';
import { DISCORD_BED_TOKEN, type DiscordBed, startDiscordBed } from './support/discord-bed.js';
import { recordFigures, sized } from './support/figures.js';
import { HandledLedger } from './support/handled-ledger.js';
import { planFlood } from './support/slack-flood.js';

const MAX_DETACHED = 16;
const PER_TENANT = 6;
const HANDLER_MS = 150;
const GUILDS = [
  '700000000000000001',
  '700000000000000002',
  '700000000000000003',
  '700000000000000004',
];
const HOT = GUILDS[0]!;
const { busyText } = DEFAULT_DISCORD_ADAPTER_OPTIONS;

/** What Discord's user saw for one interaction. */
interface Answer {
  readonly interaction: DiscordTestInteraction;
  readonly status: number;
  readonly body: { type?: number; data?: { flags?: number; content?: string } };
}

describe('a Discord HTTP interactions flood far above the admission bound', () => {
  let bed: DiscordBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('handles every interaction exactly once or refuses it visibly, holding both bounds (Discord redelivers nothing)', async () => {
    bed = await startDiscordBed({
      runtime: {
        maxDetached: MAX_DETACHED,
        maxDetachedPerTenant: PER_TENANT,
        concurrency: 'queue',
      },
      hot: { tenant: HOT, ceiling: PER_TENANT },
    });
    // Handlers outlast a burst gap, so the bound fills however slowly a loaded machine sends.
    const handled = new HandledLedger();
    bed.runtime.onCommand(
      'flood',
      handled.slow(HANDLER_MS, (event) => event.id),
    );
    bed.runtime.onAction(
      'press',
      handled.slow(HANDLER_MS, (event) => event.id),
    );
    const plan = planFlood({
      events: sized(300, 3000),
      commands: sized(100, 1000),
      tenants: GUILDS,
      hotShare: 0.5,
      burstSize: 2 * MAX_DETACHED,
      burstGapMs: 120,
      seed: 11,
    });
    const b = bed;
    const answers: Answer[] = [];
    const start = performance.now();
    const sends: Promise<void>[] = [];
    for (const [i, item] of plan.entries()) {
      const wait = start + item.atMs - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const options = {
        id: String(800_000_000_000_000_000n + BigInt(i)),
        guildId: item.tenant,
        channelId: `61000000000000000${i % 10}`,
      };
      const interaction =
        item.kind === 'event'
          ? buildButton({ ...options, customId: 'press' })
          : buildChatInputCommand({ ...options, name: 'flood' });
      const body = JSON.stringify(interaction);
      sends.push(
        fetch(b.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...b.signer.sign(body) },
          body,
        }).then(async (response) => {
          const text = await response.text();
          b.log.add(text);
          answers.push({
            interaction,
            status: response.status,
            body: JSON.parse(text) as Answer['body'],
          });
        }),
      );
    }
    await Promise.all(sends);
    await b.runtime.shutdown({ graceMs: 10_000 });

    const stats = b.runtime.stats();
    let accepted = 0;
    let refused = 0;
    for (const answer of answers) {
      const id = answer.interaction.id;
      const count = handled.counts.get(id) ?? 0;
      expect(answer.status).toBe(200);
      const deferredType = answer.interaction.type === 2 ? 5 : 6;
      if (answer.body.type === deferredType) {
        accepted += 1;
        expect(count).toBe(1);
      } else {
        // Refused visibly: an ephemeral message with the busy text, never a fake success.
        expect(answer.body).toMatchObject({ type: 4, data: { flags: 64, content: busyText } });
        expect(count).toBe(0);
        refused += 1;
      }
    }
    expect(answers).toHaveLength(plan.length);
    expect(accepted).toBe(stats.accepted);
    expect(handled.total).toBe(stats.accepted);
    expect(stats.outcomes.completed).toBe(stats.accepted);
    expect(ACCEPTED_OUTCOMES.reduce((sum, outcome) => sum + stats.outcomes[outcome], 0)).toBe(
      stats.accepted,
    );
    const rejections = b.log.observations.filter((o) => o.type === 'admission_rejected');
    expect(rejections.length).toBe(refused);
    expect(stats.outcomes['admission-rejected']).toBe(refused);
    expect(rejections.some((o) => o.reason === 'capacity')).toBe(true);
    // Both bounds held; the hot guild sat at its ceiling while the others kept being admitted.
    expect(b.sampler.peakInFlight).toBe(MAX_DETACHED);
    expect(stats.detachedHighWater).toBe(MAX_DETACHED);
    expect(b.sampler.peakPerTenant.get(`discord:${HOT}`)).toBe(PER_TENANT);
    for (const peak of b.sampler.peakPerTenant.values())
      expect(peak).toBeLessThanOrEqual(PER_TENANT);
    expect(rejections.some((o) => o.reason === 'tenant-capacity' && o.tenant === HOT)).toBe(true);
    expect(b.sampler.othersAdmittedWhileHotAtCeiling).toBeGreaterThan(0);
    expect(b.log.leaks([DISCORD_BED_TOKEN])).toEqual([]);
    expect(b.listenerErrors).toEqual([]);
    const byReason: Record<string, number> = {};
    for (const o of rejections) byReason[o.reason] = (byReason[o.reason] ?? 0) + 1;
    recordFigures('discord-http-flood', {
      sent: plan.length,
      admitted: stats.accepted,
      rejected: refused,
      rejectedByReason: byReason,
      retried: 0,
      handled: handled.total,
      maxDetached: MAX_DETACHED,
      maxDetachedPerTenant: PER_TENANT,
      peakInFlight: b.sampler.peakInFlight,
      peakHotTenant: b.sampler.peakPerTenant.get(`discord:${HOT}`),
      othersAdmittedWhileHotAtCeiling: b.sampler.othersAdmittedWhileHotAtCeiling,
    });
  });
});
