import { AdmissionRejectedError, type Observation } from '@rt/core';
import { noticeEmitter, PendingSet, type RuntimeHandle } from '@rt/core/adapter';
import { fakeRuntimeHandle } from '@rt/testing/adapter';
import {
  buildAppRateLimited,
  buildMessageEvent,
  buildShortcut,
  buildSlashCommand,
  buildUrlVerification,
} from '@rt/testing/slack';
import { describe, expect, it } from 'vitest';
import type { SlackNoticeName } from '../notices.js';
import { resolveSlackOptions } from '../options.js';
import { classifySlackPayload, type SlackPayloadSource } from '../parse/classify-payload.js';
import { createSlackFollowUps, type SlackFollowUpJob } from '../respond/follow-up.js';
import { answerSlackPayload } from './answer-payload.js';
import type { SlackCoreDeps } from './deps.js';

/** The neutral core wired without any transport (no signing secret: Socket Mode style). */
function core(runtime: RuntimeHandle | 'detached' = fakeRuntimeHandle()) {
  const options = resolveSlackOptions({
    botToken: 'xoxb-core',
    fetch: async () => new Response('{"ok":true}'),
  });
  const started: SlackFollowUpJob[] = [];
  const observed: Observation[] = [];
  const followUps = createSlackFollowUps(options, () => {});
  const start = followUps.start.bind(followUps);
  followUps.start = (job) => {
    started.push(job);
    start(job);
  };
  const deps: SlackCoreDeps = {
    options,
    runtime: () => (runtime === 'detached' ? undefined : runtime),
    followUps,
    answering: new PendingSet(),
    notice: noticeEmitter<SlackNoticeName>('slack', () => ({
      ...fakeRuntimeHandle(),
      observe: (o) => void observed.push(o),
    })),
  };
  const answer = async (source: SlackPayloadSource, payload: unknown) =>
    answerSlackPayload(deps, classifySlackPayload(source, payload), { receivedAt: Date.now() });
  return { deps, answer, started, observed };
}

const refusing = (reason: 'capacity' | 'shutdown') =>
  fakeRuntimeHandle(() => Promise.reject(new AdmissionRejectedError(reason, 'slack', 'T0TEAM')));

describe('the transport-neutral Slack core', () => {
  it('answers decoded payloads as Socket Mode delivers them, without a signing secret', async () => {
    const runtime = fakeRuntimeHandle(async () => ({
      status: 'accepted',
      settled: new Promise(() => {}),
    }));
    const { answer } = core(runtime);
    expect(await answer('events_api', buildMessageEvent().data)).toEqual({ kind: 'empty' });
    expect(await answer('slash_commands', buildSlashCommand().data)).toEqual({ kind: 'empty' });
    expect(await answer('interactive', buildShortcut().data)).toEqual({ kind: 'empty' });
    expect(runtime.dispatched.map((e) => e.shape)).toEqual([
      'event_callback',
      'slash_command',
      'shortcut',
    ]);
  });

  it('asks for a retry when an event is refused, and answers a refused slash command in its ack', async () => {
    const { answer } = core(refusing('capacity'));
    expect(await answer('events_api', buildMessageEvent().data)).toEqual({ kind: 'retry' });
    expect(await answer('slash_commands', buildSlashCommand().data)).toEqual({
      kind: 'json',
      body: { response_type: 'ephemeral', text: resolveSlackOptions({ botToken: 'x' }).busyText },
    });
  });

  it('acknowledges a refused shortcut and hands its busy view to the follow-up runner', async () => {
    const { answer, started, deps } = core(refusing('shutdown'));
    expect(await answer('interactive', buildShortcut().data)).toEqual({ kind: 'empty' });
    expect(started).toMatchObject([
      { event: { shape: 'shortcut' }, followUp: { kind: 'views.open' } },
    ]);
    await deps.followUps.drain();
  });

  it('echoes a url_verification challenge, acks app_rate_limited with a notice, retries before attach', async () => {
    const { answer, observed } = core();
    expect(await answer('events_api', buildUrlVerification('c-1').data)).toEqual({
      kind: 'json',
      body: { challenge: 'c-1' },
    });
    expect(await answer('events_api', buildAppRateLimited().data)).toEqual({ kind: 'empty' });
    expect(observed).toMatchObject([{ type: 'adapter_notice', name: 'app_rate_limited' }]);
    const detached = core('detached');
    expect(await detached.answer('events_api', buildMessageEvent().data)).toEqual({
      kind: 'retry',
      reason: 'not attached',
    });
  });

  it('refuses to classify what it cannot read, naming the problem', () => {
    expect(() => classifySlackPayload('slash_commands', { text: 'no command' })).toThrow(/command/);
    expect(() => classifySlackPayload('interactive', { type: 'mystery' })).toThrow(/mystery/);
    expect(() => classifySlackPayload('events_api', [])).toThrow(/JSON object/);
  });
});
