import { card, createRuntime, isHistoryReader, section } from '@rt/core';
import { describe, expect, it } from 'vitest';
import { markOnlyState } from '../support/mark-only-state.js';
import { createTestAdapter } from './test-adapter.js';

describe('test adapter', () => {
  const bot = () => {
    const state = markOnlyState();
    const adapter = createTestAdapter({
      history: { th: [{ id: '1', text: 'earlier', at: 1, fromBot: false }] },
    });
    const runtime = createRuntime({ state, adapters: [adapter] });
    return { adapter, runtime };
  };

  it('dispatches synthetic events and records what the bot posted', async () => {
    const { adapter, runtime } = bot();
    runtime.onMention(async (ctx) => {
      await ctx.reply(`you said: ${ctx.event.text}`);
    });
    runtime.onCommand('echo', (ctx) =>
      ctx.reply({ text: ctx.event.text ?? '', extra: { ephemeral: true } }),
    );
    await expect(adapter.mention('hi', { thread: 'th' })).resolves.toMatchObject({
      status: 'accepted',
    });
    await adapter.command('/echo', 'loud');
    await adapter.settled();
    expect(adapter.posted.map((p) => [p.text, p.thread])).toEqual([
      ['you said: hi', 'th'],
      ['loud', expect.any(String)],
    ]);
    expect(adapter.posted[1]?.extra).toEqual({ ephemeral: true });
  });

  it('reports duplicates and unrouted events like a real adapter', async () => {
    const { adapter, runtime } = bot();
    runtime.onMessage('ping', () => {});
    await expect(adapter.message('ping', { id: 'same' })).resolves.toMatchObject({
      status: 'accepted',
    });
    await expect(adapter.message('ping', { id: 'same' })).resolves.toEqual({ status: 'duplicate' });
    await expect(adapter.message('other')).resolves.toEqual({ status: 'unrouted' });
  });

  it('serves thread history through the HistoryReader capability', async () => {
    const { adapter } = bot();
    expect(isHistoryReader(adapter)).toBe(true);
    const event = { thread: 'th' } as Parameters<typeof adapter.readHistory>[0];
    await expect(adapter.readHistory(event)).resolves.toMatchObject([{ text: 'earlier' }]);
  });

  it('refuses to send before it is registered', async () => {
    await expect(createTestAdapter().send()).rejects.toThrow(/not registered/);
  });

  it('records every conversation action, and cards as their fallback text', async () => {
    const { adapter, runtime } = bot();
    runtime.onAction('vote', async (ctx) => {
      await ctx.react('👍', ctx.event.message);
      await ctx.ephemeral(`you voted ${ctx.event.value}`);
      await ctx.reply(card({ title: 'Tally', fallback: 'Tally: 1' }, section('**1** vote')));
      await ctx.dm('U9', 'thanks');
    });
    await adapter.action('vote', { value: 'yes', message: { channel: 'C1', id: 'm1' } });
    await adapter.settled();
    expect(adapter.acted.map((a) => a.action)).toEqual(['react', 'ephemeral', 'reply', 'dm']);
    expect(adapter.acted[0]).toMatchObject({ emoji: '👍', target: { id: 'm1' } });
    expect(adapter.acted[1]).toMatchObject({ message: 'you voted yes', user: 'U-test' });
    expect(adapter.posted.map((p) => [p.channel, p.text])).toEqual([
      ['C-test', 'Tally: 1'],
      ['D-U9', 'thanks'],
    ]);
    expect(adapter.posted[0]?.extra?.card).toMatchObject({ type: 'card', title: 'Tally' });
  });
});
