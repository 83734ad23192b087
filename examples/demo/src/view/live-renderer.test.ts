import { describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_CONFIG } from '../config/demo-config.js';
import type { Snapshot } from '../metrics.js';
import { SimulatorLedger } from '../simulator/ledger.js';
import { frameLines } from './frame-lines.js';
import { fitLine, LiveRenderer } from './live-renderer.js';

/** A busy mid-run snapshot with the default flags' widest plausible figures. */
function busySnapshot(): Snapshot {
  const sim = { ...new SimulatorLedger().counters };
  Object.assign(sim, { eventsSent: 400, eventsAcked: 399, rejected503: 1405, exhausted: 12 });
  Object.assign(sim, { redelivered: [0, 400, 399, 398], retriesCancelled: 3 });
  return {
    elapsedMs: 123_456,
    phase: 'retry tail',
    sim,
    web: {
      calls: 999,
      messagesPosted: 400,
      busyPosts: { command: 0, click: 40, unknown: 0 },
      answerPosts: 80,
    },
    retriesWaiting: 400,
    handled: { event: 400, command: 40, click: 40 },
    busyShown: { commands: 40, clicks: 40 },
    lateBusy: { commands: 0, unknown: 0 },
    inFlight: 50,
    maxDetached: DEFAULT_DEMO_CONFIG.maxDetached,
    handlersRunning: 50,
    handlersPeak: 50,
    peakSampled: 50,
    samples: 999,
    rssBytes: 1234.5 * 1_048_576,
    heapUsedBytes: 999.9 * 1_048_576,
    peakRssBytes: 1234.5 * 1_048_576,
    peakHeapUsedBytes: 999.9 * 1_048_576,
    discord: {
      sent: { message: 150, command: 20, click: 20, suggestion: 20 },
      answered: { message: 150, command: 200, click: 200, suggestion: 200 },
      busy: { message: 150, command: 200, click: 200, suggestion: 0 },
      handlersRunning: 500,
    },
  };
}

const ESC = '\u001b[';
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');
const totals = {
  events: 400,
  commands: 40,
  clicks: 40,
  discordMessages: 150,
  discordCommands: 20,
  discordClicks: 20,
  discordSuggestions: 20,
};

describe('the live view', () => {
  it('fits an 80-column terminal with the default flags', () => {
    for (const line of frameLines(busySnapshot(), totals)) expect(line.length).toBeLessThan(80);
  });

  it('cuts every line to the terminal width minus one, so nothing wraps', () => {
    expect(fitLine('x'.repeat(50), 40)).toHaveLength(39);
    expect(fitLine('x'.repeat(39), 40)).toHaveLength(39);
    expect(fitLine('x'.repeat(100), undefined)).toHaveLength(100);
    const writes: string[] = [];
    const renderer = new LiveRenderer(
      { write: (text: string) => writes.push(text) },
      totals,
      () => 30,
    );
    renderer.frame(busySnapshot());
    renderer.frame(busySnapshot());
    const lines = writes[1]!.split('\n').slice(0, -1);
    expect(writes[1]!.startsWith(`${ESC}${lines.length}F`)).toBe(true);
    for (const line of lines) {
      const visible = line.replace(`${ESC}${lines.length}F`, '').replace(`${ESC}K`, '');
      expect(visible.length).toBeLessThanOrEqual(29);
    }
  });

  it('reads the width at every frame, so a resize is honoured', () => {
    const writes: string[] = [];
    let columns = 80;
    const renderer = new LiveRenderer(
      { write: (text: string) => writes.push(text) },
      totals,
      () => columns,
    );
    renderer.frame(busySnapshot());
    columns = 20;
    renderer.frame(busySnapshot());
    const widest = (text: string) =>
      Math.max(...text.split('\n').map((l) => l.replace(ANSI, '').length));
    expect(widest(writes[0]!)).toBeGreaterThan(19);
    expect(widest(writes[1]!)).toBeLessThanOrEqual(19);
  });
});
