import type { SlackAdapter } from '@rt/adapter-slack';
import { createRuntime, type Runtime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter, type TestAdapter } from '@rt/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classifyReply } from '../summary/stream-checks.js';
import { BotTally } from './bot-tally.js';
import { INTERRUPTED_NOTICE, registerHandlers, STREAM_MARKERS } from './handlers.js';
import { modelAnswer } from './model.js';

let runtime: Runtime | undefined;

/** The demo's handlers on a test adapter (not Discord: answers go the Slack way). */
function start(handlerMs: number): { adapter: TestAdapter; tally: BotTally } {
  const adapter = createTestAdapter();
  const tally = new BotTally();
  runtime = createRuntime({
    state: createMemoryState(),
    adapters: [adapter],
    dispatchMode: 'deferred',
    observers: [tally.observe],
  });
  tally.bind(runtime);
  registerHandlers(runtime, { slack: {} as SlackAdapter, tally, handlerMs, seed: 7 });
  return { adapter, tally };
}

afterEach(async () => {
  await runtime?.shutdown({ graceMs: 0 });
  runtime = undefined;
});

describe('the demo handlers', () => {
  it('stream the seeded answer of each mention whole', async () => {
    const { adapter, tally } = start(20);
    await adapter.mention('hi', { id: 'Ev1' });
    await adapter.settled();
    expect(adapter.posted.map((p) => p.text)).toEqual([modelAnswer('Ev1')]);
    expect(tally.handled.event.get('Ev1')).toBe(1);
    expect(tally.streamsOf('test')).toEqual(new Map([['test completed', 1]]));
    expect(tally.modelStops).toBe(0);
  });

  it('stopped by a shutdown: the stream ends with the marker, /ask and the click say so', async () => {
    const { adapter, tally } = start(60_000);
    await adapter.mention('hi', { id: 'Ev2' });
    await adapter.command('ask', 'why', { id: 'cmd1' });
    await adapter.action('approve', { id: 'clk1' });
    await vi.waitFor(() => expect(tally.handlers.entered).toBe(3));
    await runtime?.shutdown({ graceMs: 0 });

    const [reply] = adapter.posted;
    expect(reply?.text.endsWith(STREAM_MARKERS.interrupted)).toBe(true);
    expect(classifyReply('Ev2', reply?.text ?? '', STREAM_MARKERS)).toBe('interrupted');
    const notices = adapter.acted.filter((a) => a.action === 'ephemeral').map((a) => a.message);
    expect(notices).toEqual([INTERRUPTED_NOTICE, INTERRUPTED_NOTICE]);
    expect([...tally.interrupted.event.keys()]).toEqual(['Ev2']);
    expect(tally.interruptedCount('command') + tally.interruptedCount('click')).toBe(2);
    expect(tally.handlers.threw).toBe(0);
    expect(tally.modelStops).toBe(1);
    expect(tally.streamsOf('test')).toEqual(new Map([['test interrupted', 1]]));
    expect(runtime?.stats().outcomes.shutdown).toBe(3);
  });
});
