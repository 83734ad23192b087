import { DEFAULT_SLACK_ADAPTER_OPTIONS } from '@rt/adapter-slack';
import { ACCEPTED_OUTCOMES } from '@rt/core';
import {
  buildAppMentionEvent,
  buildSlashCommand,
  type FakeSocketMode,
  startFakeSocketMode,
} from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './support/deferred.js';
import { recordFigures, sized } from './support/figures.js';
import { HandledLedger } from './support/handled-ledger.js';
import { BED_SECRET, BED_TOKEN, type SlackBed, startSlackBed } from './support/slack-bed.js';
import { planFlood } from './support/slack-flood.js';

const MAX_DETACHED = 16;
const APP_TOKEN = 'xapp-1-reliability-app-token-7c2e4a';
const { busyText } = DEFAULT_SLACK_ADAPTER_OPTIONS;

describe('a Slack Socket Mode flood far above the admission bound, with the connection dropped mid-stream', () => {
  let bed: SlackBed | undefined;
  let fake: FakeSocketMode | undefined;
  afterEach(async () => {
    await bed?.close();
    await fake?.close();
    bed = fake = undefined;
  });

  it('handles every event exactly once through redeliveries of unacked envelopes, and refuses commands visibly', async () => {
    // Unacked events_api envelopes come back after 200 ms, 600 ms, 3.6 s (Slack: seconds). The
    // last one late enough for a bound held full by a burst to drain on a loaded CI machine (at
    // 1.8 s, two events of 2,400 once met a full bound on every attempt while other suites ran).
    fake = await startFakeSocketMode({ redeliverAfterMs: [200, 600, 3600] });
    bed = await startSlackBed({
      adapter: {
        socketMode: {
          appToken: APP_TOKEN,
          apiUrl: fake.apiUrl,
          reconnectMinDelayMs: 10,
          reconnectMaxDelayMs: 50,
        },
      },
      runtime: { maxDetached: MAX_DETACHED, concurrency: 'queue' },
    });
    const handled = new HandledLedger();
    bed.runtime.onMention(handled.slow(20, (event) => event.id));
    bed.runtime.onCommand(
      'flood',
      handled.slow(20, (event) => event.text ?? ''),
    );
    await bed.runtime.start();
    await fake.waitForConnection(1);

    const plan = planFlood({
      events: sized(240, 2400),
      commands: sized(40, 400),
      tenants: ['T1', 'T2', 'T3'],
      hotShare: 0.34,
      burstSize: 2 * MAX_DETACHED,
      // Slack redelivers the envelopes refused together at the same instant, so a burst's refused
      // half comes back as one herd 200 ms later: bursts 450 ms apart let it meet a bound the
      // next burst has not filled (160 ms apart, a loaded machine kept herds colliding with
      // bursts and each other until some events had been refused on all four attempts).
      burstGapMs: sized(450, 250),
      seed: 17,
    });
    const f = fake;
    const commandEnvelopes = new Map<string, string>();
    const start = performance.now();
    let dropped = false;
    for (const [i, item] of plan.entries()) {
      const wait = start + item.atMs - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      // Half way through, the connection dies without a close frame; the client reconnects and
      // Slack redelivers what went unacknowledged on it.
      if (!dropped && i >= plan.length / 2) {
        dropped = true;
        const connections = f.connections.length;
        f.drop();
        await f.waitForConnection(connections + 1);
      }
      await until(() => f.openConnections().length > 0);
      if (item.kind === 'event') {
        f.send(
          buildAppMentionEvent({
            eventId: item.id,
            teamId: item.tenant,
            channel: `C${item.tenant}`,
            ts: `1800000000.${item.id.slice(2)}`,
          }),
        );
      } else {
        const envelope = f.send(
          buildSlashCommand({
            command: '/flood',
            text: item.id,
            teamId: item.tenant,
            triggerId: item.id,
          }),
        );
        commandEnvelopes.set(item.id, envelope.envelope_id);
      }
    }
    const events = plan.filter((item) => item.kind === 'event');
    const acked = (id: string) =>
      f.deliveriesOf(id).some((e) => f.acksOf(e.envelope_id).length > 0);
    await until(() =>
      events.every(
        (item) => acked(item.id) || f.expired.some((e) => e.payload.event_id === item.id),
      ),
    );
    await until(() =>
      [...commandEnvelopes.values()].every(
        (id) => f.acksOf(id).length > 0 || f.connections.some((c) => c.closed),
      ),
    );
    await bed.runtime.shutdown({ graceMs: 10_000 });

    const stats = bed.runtime.stats();
    expect(f.expired).toEqual([]);
    for (const item of events) {
      expect(acked(item.id)).toBe(true);
      expect(handled.counts.get(item.id)).toBe(1);
    }
    let busy = 0;
    let lostWithConnection = 0;
    for (const [id, envelopeId] of commandEnvelopes) {
      const [ack] = f.acksOf(envelopeId);
      const count = handled.counts.get(id) ?? 0;
      if (ack === undefined) {
        // A command sent on the connection that died before it was acked: Slack shows the user an
        // error (slash commands are not redelivered) and the runtime never saw it, or saw it and
        // its ack was lost with the socket.
        lostWithConnection += 1;
        expect(count).toBeLessThanOrEqual(1);
        continue;
      }
      if (ack.payload !== undefined && JSON.stringify(ack.payload) !== '{}') {
        expect(ack.payload).toEqual({ response_type: 'ephemeral', text: busyText });
        expect(count).toBe(0);
        busy += 1;
      } else {
        expect(count).toBe(1);
      }
    }
    const redelivered = f.sent.filter((e) => (e.retry_attempt ?? 0) > 0).length;
    expect(redelivered).toBeGreaterThan(0);
    expect(stats.outcomes['admission-rejected']).toBeGreaterThan(0);
    expect(ACCEPTED_OUTCOMES.reduce((sum, outcome) => sum + stats.outcomes[outcome], 0)).toBe(
      stats.accepted,
    );
    expect(stats.detachedHighWater).toBe(MAX_DETACHED);
    expect(bed.sampler.peakInFlight).toBeLessThanOrEqual(MAX_DETACHED);
    expect(bed.log.leaks([BED_SECRET, BED_TOKEN, APP_TOKEN])).toEqual([]);
    recordFigures('socket-mode-flood', {
      sent: plan.length,
      envelopes: f.sent.length,
      redelivered,
      admitted: stats.accepted,
      rejected: stats.outcomes['admission-rejected'],
      handled: handled.total,
      commandsBusy: busy,
      commandsLostWithDroppedConnection: lostWithConnection,
      connections: f.connections.length,
      maxDetached: MAX_DETACHED,
      peakInFlight: bed.sampler.peakInFlight,
    });
  });
});
