import { describe, expect, it } from 'vitest';
import { main } from './run-demo.js';

function sink(): { write(text: string): boolean; text(): string; isTTY: false } {
  const chunks: string[] = [];
  return {
    write: (text) => chunks.push(text) > 0,
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
        '--time-scale',
        '1200',
        '--duration',
        '4',
      ],
      { stdout: out },
    );
    const failed = report?.invariants.filter((i) => !i.passed).map((i) => `${i.name}: ${i.detail}`);
    expect(failed).toEqual([]);
    expect(exitCode).toBe(0);
    expect(report?.invariants).toHaveLength(8);
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
    expect(out.text()).toMatch(/RESULT: all 8 invariants passed\n$/);
  });

  it('prints help and refuses unknown flags with a usage exit code', async () => {
    const help = sink();
    expect((await main(['--help'], { stdout: help })).exitCode).toBe(0);
    expect(help.text()).toContain('--max-detached');
    const bad = sink();
    expect((await main(['--events', '0'], { stdout: bad })).exitCode).toBe(2);
    expect(bad.text()).toContain('--events must be an integer >= 1');
    expect((await main(['--nope'], { stdout: sink() })).exitCode).toBe(2);
  });
});
