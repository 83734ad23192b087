import type { Observation } from '@rt/core';
import { mockTextStream } from '@rt/testing/ai';
import { buildEventCallback, buildMessageEvent, type SlackTestPayload } from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { SlackTargetError } from '../errors.js';
import { type Harness, startHarness } from '../test-support/harness.js';
import { type SocketHarness, startSocketHarness } from '../test-support/socket-harness.js';
import { onSlackAssistant } from './assistant-routes.js';
import { assistantThreadOf } from './assistant-thread.js';

const THREAD = { user_id: 'U0USER', channel_id: 'D0ASSIST', thread_ts: '1700000000.000100' };

function threadEvent(
  type: 'assistant_thread_started' | 'assistant_thread_context_changed',
  context: Record<string, unknown> = { channel_id: 'C0CHAN', team_id: 'T0TEAM' },
): SlackTestPayload {
  return buildEventCallback({
    type,
    assistant_thread: { ...THREAD, context },
    event_ts: '1700000000.000200',
  });
}

function threadMessage(text: string): SlackTestPayload {
  return buildMessageEvent({
    channel: THREAD.channel_id,
    channelType: 'im',
    threadTs: THREAD.thread_ts,
    text,
  });
}

const finished = (o: Observation) => o.type === 'dispatch_finished';

describe('Slack AI app surfaces over the Events API', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('routes assistant_thread_started; setSuggestedPrompts and setTitle reach the thread', async () => {
    h = await startHarness();
    onSlackAssistant(h.runtime, {
      threadStarted: async (ctx) => {
        await h.adapter.setSuggestedPrompts(
          ctx,
          [
            { title: 'Summarise', message: 'Summarise this channel' },
            { title: 'Explain', message: 'Explain the last message' },
          ],
          { title: 'Try one of these' },
        );
        await h.adapter.setTitle(ctx, 'New chat');
      },
    });
    await h.send(threadEvent('assistant_thread_started'));
    expect(await h.observed(finished)).toMatchObject({ outcome: 'completed' });
    expect(h.fake.messages.assistant).toMatchObject([
      {
        method: 'setSuggestedPrompts',
        channel: 'D0ASSIST',
        threadTs: THREAD.thread_ts,
        args: {
          title: 'Try one of these',
          prompts: [{ title: 'Summarise' }, { title: 'Explain' }],
        },
      },
      { method: 'setTitle', args: { title: 'New chat' } },
    ]);
  });

  it('gives the context of assistant_thread_context_changed to its handler', async () => {
    h = await startHarness();
    let context: unknown;
    onSlackAssistant(h.runtime, {
      threadContextChanged: (ctx) => {
        context = assistantThreadOf(ctx.event)?.context;
      },
    });
    await h.send(threadEvent('assistant_thread_context_changed', { channel_id: 'C0OTHER' }));
    await h.observed(finished);
    expect(context).toEqual({ channel_id: 'C0OTHER' });
  });

  it('shows the thread status until the first text, then streams the answer natively', async () => {
    h = await startHarness({ adapter: { stream: { appendIntervalMs: 20 } } });
    onSlackAssistant(h.runtime, {
      userMessage: (ctx) =>
        ctx.stream(mockTextStream(['Here ', 'is ', 'help.'], { chunkDelayInMs: 150 }).textStream, {
          flushIntervalMs: 100,
        }),
    });
    await h.send(threadMessage('help me'));
    expect(await h.observed(finished)).toMatchObject({ outcome: 'completed' });
    const methods = h.fake.calls.map((call) => call.method);
    expect(methods[0]).toBe('assistant.threads.setStatus');
    expect(methods).toContain('chat.startStream');
    expect(h.fake.messages.assistant[0]).toMatchObject({
      method: 'setStatus',
      args: { status: 'is typing…' },
    });
    expect(h.fake.messages.all()[0]).toMatchObject({
      channel: 'D0ASSIST',
      text: 'Here is help.',
      stream: 'stopped',
    });
  });

  it('setStatus outside an assistant thread is a SlackTargetError', async () => {
    h = await startHarness();
    let error: unknown;
    h.runtime.onMessage(async (ctx) => {
      error = await h.adapter.setStatus(ctx, 'thinking').catch((thrown: unknown) => thrown);
    });
    await h.send(buildMessageEvent({ text: 'in a channel' }));
    await h.observed(finished);
    expect(error).toBeInstanceOf(SlackTargetError);
    expect(h.fake.calls).toHaveLength(0);
  });
});

describe('Slack AI app surfaces over Socket Mode', () => {
  let h: SocketHarness;
  afterEach(async () => {
    await h.close();
  });

  it('carries assistant_thread_started and thread messages, with status and prompts', async () => {
    h = await startSocketHarness();
    onSlackAssistant(h.runtime, {
      threadStarted: (ctx) =>
        h.adapter.setSuggestedPrompts(ctx, [{ title: 'Hi', message: 'Say hi' }]),
      userMessage: async (ctx) => {
        await h.adapter.setStatus(ctx, 'is thinking…');
        await ctx.stream(mockTextStream(['Hi!']).textStream);
      },
    });
    h.fake.send(threadEvent('assistant_thread_started'));
    await h.observed(finished);
    h.fake.send(threadMessage('hello'));
    await h.observed((o) => o.type === 'stream_finished');
    expect(h.web.messages.assistant.map((call) => call.method)).toEqual([
      'setSuggestedPrompts',
      'setStatus',
      'setStatus',
    ]);
    expect(h.web.messages.all().map((m) => m.text)).toEqual(['Hi!']);
  });
});
