import { describe, expect, it } from 'vitest';
import { STREAM_INTERRUPTED_MARKER } from './bot/handlers.js';
import { EXIT_CODES, main } from './run-demo.js';

function sink(onWrite?: (text: string) => void): {
  write(text: string): boolean;
  text(): string;
  isTTY: false;
} {
  const chunks: string[] = [];
  return {
    write: (text) => {
      onWrite?.(text);
      return chunks.push(text) > 0;
    },
    text: () => chunks.join(''),
    isTTY: false,
  };
}

describe('the demo', () => {
  it('floods a bot far past its bound and proves every invariant', async () => {
    const out = sink();
    const { exitCode, report } = await main(
      [
        '--events',
        '60',
        '--commands',
        '6',
        '--clicks',
        '6',
        '--max-detached',
        '5',
        '--handler-ms',
        '40',
        // Slack's +1 and +5 min retries come 100 and 500 ms later: room for the bound to drain
        // (a streamed reply holds its slot until its last write, a little past the handler's
        // 40 ms); at x1200 one event in 60 could meet a full bound on all four attempts.
        '--time-scale',
        '600',
        '--duration',
        '4',
        // Few enough that the Slack bursts keep their margin within Slack's three retries.
        '--discord-messages',
        '12',
        '--discord-commands',
        '4',
        '--discord-clicks',
        '4',
        '--discord-suggestions',
        '3',
      ],
      { stdout: out },
    );
    const failed = report?.invariants.filter((i) => !i.passed).map((i) => `${i.name}: ${i.detail}`);
    expect(failed, JSON.stringify(failed)).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report?.invariants).toHaveLength(16);
    expect(report?.stoppedEarly).toBeUndefined();
    const r = report!;
    // Counts add up: every event was sent and handled once; the bound really was hit.
    expect(r.final.sim.eventsSent).toBe(60);
    expect(r.handled.event).toBe(60);
    expect(r.final.sim.eventsAcked).toBe(60);
    expect(r.final.sim.rejected503).toBeGreaterThan(0);
    const retries =
      r.final.sim.redelivered[1] + r.final.sim.redelivered[2] + r.final.sim.redelivered[3];
    expect(r.final.sim.deliveries).toBe(60 + retries);
    expect(r.final.sim.rejected503).toBe(retries);
    // Commands and clicks: each answered by its handler or told the app was busy.
    expect(r.handled.command + r.final.busyShown.commands).toBe(6);
    expect(r.handled.click + r.final.busyShown.clicks).toBe(6);
    // The runtime's ledger: every dispatch either accepted (and completed) or rejected.
    expect(r.accepted).toBe(r.handled.event + r.handled.command + r.handled.click);
    expect(r.outcomes.completed).toBe(r.accepted);
    expect(r.received).toBe(
      r.accepted + (r.outcomes['admission-rejected'] ?? 0) + (r.outcomes.duplicate ?? 0),
    );
    expect(r.final.peakSampled).toBeLessThanOrEqual(5);
    expect(r.final.handlersPeak).toBeLessThanOrEqual(5);
    // What the simulator saw: one reply in each event's thread, nothing outside them.
    for (const record of r.ledger.events.values()) expect(r.ledger.repliesTo(record)).toBe(1);
    expect(r.ledger.strayMessages).toBe(0);
    // Discord on the same runtime: mentions over the gateway, /ask, clicks and autocompletes as
    // signed HTTP interactions; each answered or told busy, by the Discord simulator's record.
    const d = r.final.discord;
    expect(d.sent).toEqual({ message: 12, command: 4, click: 4, suggestion: 3 });
    expect(d.answered.message + d.busy.message).toBe(12);
    expect(d.answered.command + d.busy.command).toBe(4);
    expect(d.answered.click + d.busy.click).toBe(4);
    expect(d.answered.suggestion).toBe(3);
    const busyShown = d.busy.message + d.busy.command + d.busy.click;
    expect(r.discord.outcomes['admission-rejected'] ?? 0).toBe(busyShown);
    const h = r.discord.handled;
    expect(r.discord.accepted).toBe(h.messages + h.commands + h.clicks + 3);
    expect(r.discord.outcomes.completed).toBe(r.discord.accepted);
    // Every mention was streamed and shown whole (nothing stopped the handlers of this run).
    expect(r.outcomes.shutdown ?? 0).toBe(0);
    expect(out.text()).toMatch(/\n {2}streams {3}.*Slack slack-update completed \d+/);
    expect(out.text()).toMatch(/RESULT: all 16 invariants passed\n$/);
  });

  it('floods over Socket Mode with a deploy mid-flood and proves its invariants', async () => {
    const out = sink();
    const { exitCode, socketReport } = await main(
      ['--transport', 'socket-mode', '--events', '60', '--commands', '6', '--clicks', '6'].concat([
        '--max-detached',
        '5',
        '--handler-ms',
        '40',
        '--time-scale',
        '300',
        '--duration',
        '4',
      ]),
      { stdout: out },
    );
    const failed = socketReport?.invariants
      .filter((i) => !i.passed)
      .map((i) => `${i.name}: ${i.detail}`);
    expect(failed, JSON.stringify(failed)).toEqual([]);
    expect(exitCode).toBe(EXIT_CODES.passed);
    const run = socketReport!.run;
    // Both instances served: A until the deploy, B after it; A's socket closed from its side.
    expect(run.bots.map((bot) => bot.label)).toEqual(['A', 'B']);
    expect(run.bots.every((bot) => bot.runtime.stats().accepted > 0)).toBe(true);
    expect(run.connectionA.closedWith?.by).toBe('client');
    expect(run.fake.connections).toHaveLength(2);
    // The bound was hit: some events were left unacked and came back as redeliveries.
    expect(run.fake.sent.filter((e) => (e.retry_attempt ?? 0) > 0).length).toBeGreaterThan(0);
    for (const record of run.ledger.events.values()) expect(run.ledger.repliesTo(record)).toBe(1);
    // Events sent on A after its admission closed: none acked there (the fake's record), each
    // redelivered to B and handled there exactly once.
    const late = run.connectionA.sent
      .slice(run.aSentBeforeShutdown)
      .filter((envelope) => envelope.type === 'events_api');
    expect(late.length).toBeGreaterThanOrEqual(3);
    for (const envelope of late) {
      expect(run.fake.acksOf(envelope.envelope_id)).toEqual([]);
      expect(run.bots[1]?.tally.handled.event.get(String(envelope.payload.event_id))).toBe(1);
    }
    // A's socket stayed open for the options load in flight: A read the events and the two /ask
    // sent after its admission closed, withheld the events and acked each /ask as busy.
    const a = run.bots[0]!;
    expect(a.refusedAtShutdown.size).toBeGreaterThanOrEqual(3);
    expect(a.refusedCommandsAtShutdown).toBe(2);
    expect(out.text()).toContain('deploy: B connected; A shutting down mid-flood');
    expect(out.text()).toMatch(/RESULT: all 10 invariants passed\n$/);
  });

  it('over Socket Mode the deploy interrupts streams: each ends with the marker, none half-written', async () => {
    const out = sink();
    const { exitCode, socketReport } = await main(
      ['--transport', 'socket-mode', '--events', '20', '--commands', '2', '--clicks', '2'].concat([
        '--max-detached',
        '10',
        '--handler-ms',
        '1500',
        '--time-scale',
        '60',
        '--duration',
        '4',
      ]),
      { stdout: out },
    );
    const failed = socketReport?.invariants
      .filter((i) => !i.passed)
      .map((i) => `${i.name}: ${i.detail}`);
    expect(failed, JSON.stringify(failed)).toEqual([]);
    expect(exitCode).toBe(EXIT_CODES.passed);
    const run = socketReport!.run;
    const a = run.bots[0]!;
    // A's grace (750 ms) is shorter than the handlers it runs at the deploy: some are stopped.
    expect(a.runtime.stats().outcomes.shutdown ?? 0).toBeGreaterThan(0);
    expect(a.tally.interruptedCount('event')).toBeGreaterThan(0);
    const marked = run.streamed.filter((reply) => reply.text.endsWith(STREAM_INTERRUPTED_MARKER));
    expect(marked.length).toBe(a.tally.interruptedCount('event'));
    expect(out.text()).toMatch(/\n {2}streams {3}.*interrupted [1-9]/);
  });

  it('exits 3 and proves nothing when stopped before sending anything', async () => {
    const out = sink();
    const { exitCode, report } = await main(['--events', '20', '--duration', '1'], {
      stdout: out,
      signal: AbortSignal.abort(new Error('stopped by the test')),
    });
    expect(exitCode).toBe(EXIT_CODES.stoppedEarly);
    expect(report?.final.sim.eventsSent).toBe(0);
    expect(report?.invariants.find((i) => i.name === 'the whole plan ran to the end')?.passed).toBe(
      false,
    );
    expect(out.text()).toContain('RESULT: STOPPED EARLY (stopped by the test): 0 of 100 planned');
  });

  it('drops the retries Slack had scheduled when stopped mid-run, and owes none of them', async () => {
    const stop = new AbortController();
    // Stop once the progress line shows the bot refusing deliveries: retries are then pending.
    const out = sink((text) => {
      if (/ 503 [1-9]/.test(text)) stop.abort(new Error('stopped mid-run'));
    });
    const { exitCode, report } = await main(
      ['--events', '40', '--commands', '0', '--clicks', '0', '--max-detached', '2'].concat([
        '--discord-messages',
        '0',
        '--discord-commands',
        '0',
        '--handler-ms',
        '300',
        '--time-scale',
        '60',
        '--duration',
        '2',
      ]),
      { stdout: out, signal: stop.signal },
    );
    expect(exitCode).toBe(EXIT_CODES.stoppedEarly);
    expect(report?.stoppedEarly).toBe('stopped mid-run');
    const statuses = [...report!.ledger.events.values()].map((record) => record.status);
    expect(statuses).not.toContain('awaiting-retry');
    expect(statuses).toContain('retry-cancelled');
    expect(report?.final.sim.retriesCancelled).toBeGreaterThan(0);
    const once = report?.invariants.find((i) => i.name.startsWith('every event handled'));
    expect(once?.passed).toBe(false);
    expect(once?.detail).toContain('0 still owed a scheduled retry');
  });

  it('prints help, and answers usage errors with one line on stderr and exit 2', async () => {
    const help = sink();
    expect((await main(['--help'], { stdout: help })).exitCode).toBe(EXIT_CODES.passed);
    expect(help.text()).toContain('--max-detached');
    for (const argv of [
      ['--events', '0'],
      ['--handler-ms', '300000000'],
      ['--time-scale', '0.0001'],
      ['--nope'],
    ]) {
      const out = sink();
      const err = sink();
      expect((await main(argv, { stdout: out, stderr: err })).exitCode).toBe(EXIT_CODES.usage);
      expect(out.text()).toBe('');
      expect(err.text()).toMatch(/^rt demo: [^\n]+ \(see --help\)\n$/);
    }
  });
});
