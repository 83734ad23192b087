import type { Observation, State } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { deferred } from '@rt/testing';
import {
  buildMessageEvent,
  buildSlashCommand,
  buildViewSubmission,
  type FakeEnvelope,
  type FakeSocketMode,
  startFakeSocketMode,
} from '@rt/testing/slack';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SocketHarness, startSocketHarness } from '../test-support/socket-harness.js';

const UNAVAILABLE = 'Unavailable: try again soon.';

function rejectedIds(observations: readonly Observation[], shape: string): Set<string> {
  return new Set(
    observations.flatMap((o) =>
      o.type === 'admission_rejected' && o.reason === 'shutdown' && o.event.shape === shape
        ? [o.event.id]
        : [],
    ),
  );
}

describe('Socket Mode shutdown (ADR 0007), with the real client against the fake', () => {
  let fake: FakeSocketMode;
  let state: State;
  let harnesses: SocketHarness[] = [];
  afterEach(async () => {
    for (const h of harnesses) await h.close();
    harnesses = [];
    await fake.close();
    await state.close();
  });

  async function runtimeOnSharedApp(
    options: Parameters<typeof startSocketHarness>[0] = {},
  ): Promise<SocketHarness> {
    const h = await startSocketHarness({ fake, state, ...options });
    harnesses.push(h);
    return h;
  }

  it('under a slash command and an event every 20 ms: busy acks before the close, no event acked after admission closed, the rest handled once by the second runtime', async () => {
    fake = await startFakeSocketMode({ redeliverAfterMs: 200 });
    // One State for both instances, as Redis would be.
    state = createMemoryState();
    const first = await runtimeOnSharedApp({ adapter: { unavailableText: UNAVAILABLE } });
    const firstConnection = await fake.waitForConnection(1);
    // The replacement starts before the old instance shuts down.
    const second = await runtimeOnSharedApp();
    await fake.waitForConnection(2);
    const handled: [string, string][] = [];
    const viewGate = deferred();
    let viewStarted = false;
    for (const [name, h] of [
      ['first', first],
      ['second', second],
    ] as const) {
      h.runtime.onMessage((ctx) => {
        handled.push([name, ctx.event.id]);
      });
      h.runtime.onCommand('ask', () => undefined);
      h.runtime.onFormSubmit('modal_cb', async () => {
        viewStarted = true;
        await viewGate.promise;
        return { response_action: 'clear' };
      });
    }

    const slashes: FakeEnvelope[] = [];
    const events: FakeEnvelope[] = [];
    let n = 0;
    const flood = setInterval(() => {
      if (!firstConnection.open) return;
      n += 1;
      try {
        slashes.push(
          fake.send(buildSlashCommand({ command: '/ask', triggerId: `trig-${n}` }), {
            to: firstConnection,
          }),
        );
        events.push(
          fake.send(buildMessageEvent({ eventId: `EvFLOOD${n}`, channel: `C${n}` }), {
            to: firstConnection,
          }),
        );
      } catch {
        // The connection closed between the check and the send.
      }
    }, 20);
    try {
      await first.observed(() => handled.filter(([name]) => name === 'first').length >= 3);
      // A sync handler is still running when shutdown starts: its ack is owed before the close.
      const view = fake.send(buildViewSubmission(), { to: firstConnection });
      await vi.waitFor(() => expect(viewStarted).toBe(true));
      const stopping = first.runtime.shutdown({ graceMs: 2000 });
      await vi.waitFor(
        () => {
          expect(rejectedIds(first.observations, 'slash_command').size).toBeGreaterThanOrEqual(2);
          expect(rejectedIds(first.observations, 'event_callback').size).toBeGreaterThanOrEqual(2);
        },
        { timeout: 5000 },
      );
      viewGate.resolve();
      await stopping;
      // Acked once, before the close: the handler's answer (or, on a machine so loaded that the
      // gate opened after ackDeadlineMs, the deadline's unavailable errors; never nothing).
      const viewAcks = fake.acksOf(view.envelope_id).map((ack) => ack.payload);
      expect(viewAcks).toHaveLength(1);
      expect([
        { response_action: 'clear' },
        { response_action: 'errors', errors: { input_block: UNAVAILABLE } },
      ]).toContainEqual(viewAcks[0]);
    } finally {
      clearInterval(flood);
    }

    // Every slash command the first runtime read was acked once, the refused ones with the
    // unavailable payload, all before the socket closed (no ack failed).
    const read = new Set(
      first.observations.flatMap((o) =>
        o.type === 'dispatch_finished' && o.event.shape === 'slash_command' ? [o.event.id] : [],
      ),
    );
    const refusedSlash = rejectedIds(first.observations, 'slash_command');
    for (const slash of slashes) {
      const acks = fake.acksOf(slash.envelope_id);
      if (!read.has(String(slash.payload.trigger_id))) {
        expect(acks).toEqual([]);
        continue;
      }
      expect(acks).toHaveLength(1);
      if (refusedSlash.has(String(slash.payload.trigger_id))) {
        expect(acks[0]?.payload).toEqual({ response_type: 'ephemeral', text: UNAVAILABLE });
      }
    }
    expect(first.notices('ack_failed')).toEqual([]);

    // No event refused at shutdown was acked on the first connection; every event it acked was
    // one it had admitted.
    const admitted = new Set(
      first.observations.flatMap((o) => (o.type === 'dispatch_admitted' ? [o.event.id] : [])),
    );
    const eventAcksOnFirst = fake.acks.filter(
      (ack) => ack.connection === firstConnection.id && ack.envelope?.type === 'events_api',
    );
    for (const ack of eventAcksOnFirst) {
      expect(admitted.has(String(ack.envelope?.payload.event_id))).toBe(true);
    }

    // Every event sent is handled exactly once: the refused and unread ones by the second runtime.
    await vi.waitFor(() => expect(handled).toHaveLength(events.length), { timeout: 10_000 });
    const ids = handled.map(([, id]) => id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(events.map((e) => String(e.payload.event_id))));
    for (const id of rejectedIds(first.observations, 'event_callback')) {
      expect(handled).toContainEqual(['second', id]);
    }

    // The first runtime's socket closed from its side and was never reopened.
    expect(firstConnection.closedWith?.by).toBe('client');
    expect(first.notices('socket_connected')).toHaveLength(1);
    expect(fake.connections).toHaveLength(2);
    const stats = first.runtime.stats();
    expect(stats.accepted).toBe(stats.outcomes.completed);
  });

  it('stops connecting when the runtime shuts down before the first connection opened', async () => {
    fake = await startFakeSocketMode();
    state = createMemoryState();
    fake.failConnectionsOpen(Number.POSITIVE_INFINITY);
    const h = await runtimeOnSharedApp({ start: false });
    const starting = h.runtime.start().then(
      () => undefined,
      (error: unknown) => error,
    );
    await h.observed((o) => o.type === 'adapter_notice' && o.name === 'socket_connect_failed');
    await h.runtime.shutdown({ graceMs: 0 });
    expect(await starting).toMatchObject({ name: 'ShutdownError' });
    const calls = fake.connectionsOpenCalls;
    expect(fake.connections).toEqual([]);
    // Nothing tries again after the shutdown.
    await h.observed((o) => o.type === 'shutdown_finished');
    expect(fake.connectionsOpenCalls).toBe(calls);
  });

  it('terminates a socket whose close handshake hangs when the stop step runs out of time', async () => {
    fake = await startFakeSocketMode();
    state = createMemoryState();
    const h = await runtimeOnSharedApp({ socketMode: { logLevel: 'debug' } });
    fake.stall(await fake.waitForConnection(1));
    await h.runtime.shutdown({ graceMs: 0, abandonAfterMs: 100 });
    expect(h.notices('stop_timed_out')).toHaveLength(1);
    expect(
      h
        .notices('socket_mode_log')
        .some((n) => String(n.detail?.message).includes('force-terminating')),
    ).toBe(true);
  });
});
