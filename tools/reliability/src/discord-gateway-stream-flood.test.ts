import { createDiscordAdapter, DEFAULT_DISCORD_ADAPTER_OPTIONS } from '@rt/adapter-discord';
import { createRuntime, type Runtime } from '@rt/core';
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
import { checkStreams, StreamLedger } from './support/stream-ledger.js';

const TOKEN = 'discord-reliability-gateway-stream-token-2f8a';
const MAX_DETACHED = 8;
const BOT = DISCORD_TEST_IDS.applicationId;

describe('a Discord gateway flood of streamed replies far above the admission bound', () => {
  let fake: FakeDiscord | undefined;
  let runtime: Runtime | undefined;
  afterEach(async () => {
    await runtime?.shutdown({ graceMs: 0 });
    await fake?.close();
    fake = runtime = undefined;
  });

  it('streams every admitted message to its whole text through the per-channel rate limit, and refuses the rest visibly', async () => {
    fake = await startFakeDiscord({
      // 3 writes a second per channel against edits every 100 ms: the fake answers 429s.
      rest: { tokens: [TOKEN], messageRate: { limit: 3, windowMs: 1000 } },
      gateway: { tokens: [TOKEN] },
    });
    const log = new EmissionLog();
    const adapter = createDiscordAdapter({
      publicKey: createDiscordSigner().publicKey,
      applicationId: BOT,
      token: TOKEN,
      apiUrl: fake.rest.url,
      gateway: {},
      stream: { editIntervalMs: 100, typingRenewMs: 500 },
    });
    const rt = createRuntime({
      state: createMemoryState(),
      adapters: [adapter],
      maxDetached: MAX_DETACHED,
      concurrency: 'concurrent',
      observers: [log.observer],
    });
    runtime = rt;
    const ledger = new StreamLedger();
    rt.onMention(ledger.handler({ keyOf: (event) => event.id, chunks: 12, gapMs: 20 }));
    await rt.start();
    await fake.gateway.waitForSession();

    const total = sized(48, 480);
    // Each message in its own channel, so each reply's messages are that channel's.
    const channelOf = (i: number) => String(620_000_000_000_000_000n + BigInt(i));
    const ids: string[] = [];
    const f = fake;
    for (let i = 0; i < total; i += 1) {
      const message = buildGatewayMessage({
        id: String(920_000_000_000_000_000n + BigInt(i)),
        channelId: channelOf(i),
        content: `stream ${i}`,
        mentions: [BOT],
      });
      ids.push(String(message.id));
      f.gateway.dispatch('MESSAGE_CREATE', message);
      if (i % 16 === 15) await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    const refusedIds = () =>
      new Set(
        log.observations.flatMap((o) => (o.type === 'admission_rejected' ? [o.event.id] : [])),
      );
    await until(() => ids.every((id) => ledger.handled.counts.has(id) || refusedIds().has(id)));
    await until(() => rt.stats().detachedInFlight === 0);
    await adapter.drain();

    const shown = new Map<string, string>();
    const { busyText } = DEFAULT_DISCORD_ADAPTER_OPTIONS;
    for (const [i, id] of ids.entries()) {
      const text = f.rest.messages
        .all()
        .filter((m) => m.channel === channelOf(i) && m.content !== busyText)
        .map((m) => m.content)
        .join('');
      if (text.length > 0) shown.set(id, text);
    }
    const { violations, figures } = checkStreams({
      ledger,
      shown,
      observations: log.observations,
      allowed: ['completed'],
    });
    expect(violations).toEqual([]);
    const stats = rt.stats();
    const refused = refusedIds();
    expect(refused.size).toBeGreaterThan(0);
    for (const id of ids) expect(ledger.handled.counts.has(id) !== refused.has(id)).toBe(true);
    expect(figures.streams).toBe(stats.accepted);
    expect(stats.outcomes.completed).toBe(stats.accepted);
    expect(f.rest.messages.refused).toBeGreaterThan(0);
    // Typing was shown before the first text of some replies.
    expect(f.rest.messages.typing.length).toBeGreaterThan(0);
    expect(ledger.peakActive).toBeLessThanOrEqual(MAX_DETACHED);
    expect(log.leaks([TOKEN])).toEqual([]);
    recordFigures('discord-gateway-stream-flood', {
      ...figures,
      sent: total,
      admitted: stats.accepted,
      rejected: refused.size,
      refused429: f.rest.messages.refused,
      peakActiveStreams: ledger.peakActive,
      maxDetached: MAX_DETACHED,
    });
  });
});
