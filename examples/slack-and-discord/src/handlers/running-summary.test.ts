import { createRuntime, type Runtime } from '@rt/core';
import { createMemoryState, type MemoryState } from '@rt/state-memory';
import { createTestAdapter, type TestAdapter } from '@rt/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { followThreads, type RunningSummary } from './running-summary.js';

describe('following a thread with a running summary', () => {
  let runtime: Runtime;
  let state: MemoryState;
  let adapter: TestAdapter;
  afterEach(async () => {
    await runtime.shutdown();
    await state.close();
  });

  function start() {
    state = createMemoryState();
    adapter = createTestAdapter({ name: 'slack', tenant: 'T1' });
    runtime = createRuntime({ state, adapters: [adapter] });
    followThreads(runtime);
    runtime.onMessage((ctx) => ctx.reply('not following'));
  }

  async function send(event: Parameters<TestAdapter['send']>[0]) {
    await adapter.send(event);
    await adapter.settled();
  }

  it('subscribes at the mention and summarises the later plain messages of the thread', async () => {
    start();
    const thread = { channel: 'C1', thread: '100.1' };
    await send({ kind: 'mention', text: 'help me plan', user: 'U1', ...thread });
    await send({ kind: 'message', text: 'step one', user: 'U2', ...thread });
    await send({ kind: 'message', text: 'elsewhere', user: 'U2', channel: 'C1', thread: '200.2' });
    expect(adapter.posted.map((post) => post.text)).toEqual([
      'Noted (2 message(s) in my summary of this thread).',
      'not following',
    ]);
    const record = await state.readThreadState('slack:T1:C1:100.1');
    expect(JSON.parse(record!.value) as RunningSummary).toEqual({
      summary: 'U1: help me plan\nU2: step one',
      messages: 2,
    });
  });

  it('follows nothing for a mention outside a thread', async () => {
    start();
    await send({ kind: 'mention', text: 'hi', channel: 'C1', thread: undefined });
    expect(state.stats()).toMatchObject({ subscriptions: 0, threadStates: 0 });
  });
});
