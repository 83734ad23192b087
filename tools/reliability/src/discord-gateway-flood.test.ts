import { createDiscordAdapter, DEFAULT_DISCORD_ADAPTER_OPTIONS } from '@rt/adapter-discord';
import { ACCEPTED_OUTCOMES, createRuntime, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import {
  buildGatewayMessage,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type FakeDiscord,
  startFakeDiscord,
} from '@rt/testing/discord';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './support/deferred.js';
import { EmissionLog } from './support/emission-log.js';
import { recordFigures, sized } from './support/figures.js';
import { HandledLedger } from './support/handled-ledger.js';
import { InFlightSampler } from './support/in-flight-sampler.js';

const TOKEN = 'discord-reliability-gateway-token-6a1c8e';
const MAX_DETACHED = 8;
const BOT = DISCORD_TEST_IDS.applicationId;
const CHANNEL_MESSAGES = 'POST /channels/:channel/messages' as const;

describe('a Discord gateway flood far above the admission bound, with a reconnect mid-stream', () => {
  let fake: FakeDiscord | undefined;
  let runtime: Runtime | undefined;
  afterEach(async () => {
    await runtime?.shutdown({ graceMs: 0 });
    await fake?.close();
    fake = runtime = undefined;
  });

  it('handles each message exactly once or refuses it visibly, never both, across a resume that replays events', async () => {
    fake = await startFakeDiscord({
      rest: { tokens: [TOKEN] },
      // A resume replays the last 3 events the client had already seen: dedupe must hold.
      gateway: { tokens: [TOKEN], resumeReplayOverlap: 3 },
    });
    const log = new EmissionLog();
    const sampler = new InFlightSampler();
    const adapter = createDiscordAdapter({
      publicKey: createDiscordSigner().publicKey,
      applicationId: BOT,
      token: TOKEN,
      apiUrl: fake.rest.url,
      gateway: {},
    });
    const rt = createRuntime({
      state: createMemoryState(),
      adapters: [adapter],
      maxDetached: MAX_DETACHED,
      concurrency: 'concurrent',
      observers: [log.observer, sampler.observer],
    });
    runtime = rt;
    sampler.bind(rt);
    const handled = new HandledLedger();
    rt.onMention(handled.slow(30, (event) => event.id));
    await rt.start();
    await fake.gateway.waitForSession();

    const total = sized(200, 2000);
    const ids: string[] = [];
    const f = fake;
    for (let i = 0; i < total; i += 1) {
      if (i === total / 2) {
        // The connection drops; discord.js reconnects and resumes the session.
        f.gateway.dropConnection();
        await f.gateway.waitForSession(10_000);
      }
      const message = buildGatewayMessage({
        id: String(910_000_000_000_000_000n + BigInt(i)),
        content: `flood ${i}`,
        mentions: [BOT],
      });
      ids.push(String(message.id));
      f.gateway.dispatch('MESSAGE_CREATE', message);
      if (i % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 40));
    }
    const refusedIds = () =>
      new Set(
        log.observations.flatMap((o) => (o.type === 'admission_rejected' ? [o.event.id] : [])),
      );
    await until(() => ids.every((id) => handled.counts.has(id) || refusedIds().has(id)));
    await until(() => rt.stats().detachedInFlight === 0);
    await adapter.drain();

    const refused = refusedIds();
    let refusedThenReplayed = 0;
    for (const id of ids) {
      const count = handled.counts.get(id) ?? 0;
      // Never handled twice (the resume's replays are deduped); handled once or refused visibly.
      // A refused message the resume replayed may then be admitted: refused, then handled once.
      expect(count).toBeLessThanOrEqual(1);
      expect(count === 1 || refused.has(id)).toBe(true);
      if (count === 1 && refused.has(id)) refusedThenReplayed += 1;
    }
    const stats = rt.stats();
    expect(refused.size).toBeGreaterThan(0);
    expect(ACCEPTED_OUTCOMES.reduce((sum, outcome) => sum + stats.outcomes[outcome], 0)).toBe(
      stats.accepted,
    );
    expect(stats.accepted).toBe(handled.total);
    expect(stats.detachedHighWater).toBeLessThanOrEqual(MAX_DETACHED);
    expect(sampler.peakInFlight).toBe(MAX_DETACHED);
    // The busy reply is the visible refusal: a reply to the refused message with the busy text.
    const busyReplies = f.rest.calls.filter(
      (call) =>
        call.route === CHANNEL_MESSAGES &&
        (call.body as { content?: string }).content === DEFAULT_DISCORD_ADAPTER_OPTIONS.busyText,
    );
    const repliedTo = new Set(
      busyReplies.map(
        (call) =>
          (call.body as { message_reference?: { message_id?: string } }).message_reference
            ?.message_id,
      ),
    );
    for (const id of repliedTo) expect(refused.has(id ?? '')).toBe(true);
    // Best effort and time-bounded (discord.js queues replies per route): a refusal whose reply
    // did not make it within the budget is still observable, as a `busy_signal_failed` notice.
    const failedSignals = new Set(
      log.observations.flatMap((o) =>
        o.type === 'adapter_notice' && o.name === 'busy_signal_failed'
          ? [String((o.detail as { eventId?: unknown } | undefined)?.eventId)]
          : [],
      ),
    );
    for (const id of refused) expect(repliedTo.has(id) || failedSignals.has(id)).toBe(true);
    expect(log.leaks([TOKEN])).toEqual([]);
    recordFigures('discord-gateway-flood', {
      sent: total,
      admitted: stats.accepted,
      rejected: refused.size,
      busyReplies: busyReplies.length,
      busySignalsFailed: failedSignals.size,
      duplicatesFromResume: stats.outcomes.duplicate,
      refusedThenReplayed,
      handled: handled.total,
      maxDetached: MAX_DETACHED,
      peakInFlight: sampler.peakInFlight,
    });
  });
});
