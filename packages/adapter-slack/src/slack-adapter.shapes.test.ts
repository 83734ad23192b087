import type { Observation, RtEvent } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { deferred, stateWith, unreachableState } from '@rt/testing';
import {
  buildAppMentionEvent,
  buildBlockActions,
  buildBlockSuggestion,
  buildMessageAction,
  buildMessageEvent,
  buildReactionEvent,
  buildShortcut,
  buildSlashCommand,
  buildViewClosed,
  buildViewSubmission,
  type FakeSlackApi,
  type SlackTestPayload,
} from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { BUSY_OPTION_VALUE } from './respond/busy-surfaces.js';
import { BOT_TOKEN, type Harness, startHarness } from './test-support/harness.js';

const BUSY = 'Busy: try again soon.';
const UNAVAILABLE = 'Unavailable: try again soon.';

/** What the fake should have received after a refusal. */
type ExpectedFollowUp =
  | { method: 'response_url'; text: string }
  | { method: 'views.push' | 'views.open'; text: string }
  | undefined;

interface ShapeCase {
  readonly name: string;
  readonly build: (fake: FakeSlackApi) => SlackTestPayload;
  /** The accepted acknowledgement. */
  readonly accepted: { status: number; body: unknown };
  /** The refusal's acknowledgement and follow-up, for `text`. */
  readonly rejected: (text: string) => {
    status: number;
    body: unknown;
    followUp: ExpectedFollowUp;
  };
}

const busyView = (text: string) => ({
  type: 'modal',
  title: { type: 'plain_text', text: 'Please try again' },
  close: { type: 'plain_text', text: 'Close' },
  blocks: [{ type: 'section', text: { type: 'plain_text', text } }],
});

const CASES: readonly ShapeCase[] = [
  {
    name: 'event_callback message',
    build: () => buildMessageEvent({ text: 'hi', threadTs: '1.1' }),
    accepted: { status: 200, body: '' },
    rejected: () => ({ status: 503, body: 'Service Unavailable', followUp: undefined }),
  },
  {
    name: 'event_callback app_mention',
    build: () => buildAppMentionEvent(),
    accepted: { status: 200, body: '' },
    rejected: () => ({ status: 503, body: 'Service Unavailable', followUp: undefined }),
  },
  {
    name: 'event_callback reaction_added',
    build: () => buildReactionEvent(),
    accepted: { status: 200, body: '' },
    rejected: () => ({ status: 503, body: 'Service Unavailable', followUp: undefined }),
  },
  {
    name: 'slash command',
    build: (fake) => buildSlashCommand({ command: '/deploy', responseUrl: fake.responseUrl() }),
    accepted: { status: 200, body: '' },
    rejected: (text) => ({
      status: 200,
      body: { response_type: 'ephemeral', text },
      followUp: undefined,
    }),
  },
  {
    name: 'block_actions from a message',
    build: (fake) => buildBlockActions({ from: 'message', responseUrl: fake.responseUrl() }),
    accepted: { status: 200, body: '' },
    rejected: (text) => ({ status: 200, body: '', followUp: { method: 'response_url', text } }),
  },
  {
    name: 'block_actions in a modal',
    build: () => buildBlockActions({ from: 'modal' }),
    accepted: { status: 200, body: '' },
    rejected: (text) => ({ status: 200, body: '', followUp: { method: 'views.push', text } }),
  },
  {
    name: 'block_actions in App Home',
    build: () => buildBlockActions({ from: 'home' }),
    accepted: { status: 200, body: '' },
    rejected: (text) => ({ status: 200, body: '', followUp: { method: 'views.open', text } }),
  },
  {
    name: 'message_action',
    build: (fake) => buildMessageAction({ responseUrl: fake.responseUrl() }),
    accepted: { status: 200, body: '' },
    rejected: (text) => ({ status: 200, body: '', followUp: { method: 'response_url', text } }),
  },
  {
    name: 'global shortcut',
    build: () => buildShortcut(),
    accepted: { status: 200, body: '' },
    rejected: (text) => ({ status: 200, body: '', followUp: { method: 'views.open', text } }),
  },
  {
    name: 'view_submission with an input block',
    build: () => buildViewSubmission({ withInput: true }),
    accepted: { status: 200, body: { response_action: 'clear' } },
    rejected: (text) => ({
      status: 200,
      body: { response_action: 'errors', errors: { input_block: text } },
      followUp: undefined,
    }),
  },
  {
    name: 'view_submission without an input block',
    build: () => buildViewSubmission({ withInput: false }),
    accepted: { status: 200, body: { response_action: 'clear' } },
    rejected: (text) => ({
      status: 200,
      body: { response_action: 'push', view: busyView(text) },
      followUp: undefined,
    }),
  },
  {
    name: 'view_closed',
    build: () => buildViewClosed(),
    accepted: { status: 200, body: '' },
    rejected: () => ({ status: 200, body: '', followUp: undefined }),
  },
  {
    name: 'block_suggestion',
    build: () => buildBlockSuggestion({ value: 'ab' }),
    accepted: {
      status: 200,
      body: { options: [{ text: { type: 'plain_text', text: 'ab result' }, value: 'ab-1' }] },
    },
    rejected: (text) => ({
      status: 200,
      body: { options: [{ text: { type: 'plain_text', text }, value: BUSY_OPTION_VALUE }] },
      followUp: undefined,
    }),
  },
];

/** What sync handlers answer (the accepted bodies above). */
function syncAnswer(event: RtEvent): unknown {
  if (event.shape === 'view_submission') return { response_action: 'clear' };
  if (event.shape === 'block_suggestion') {
    return [{ text: { type: 'plain_text', text: `${event.text} result` }, value: 'ab-1' }];
  }
  return undefined;
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  return response.headers.get('content-type')?.startsWith('application/json')
    ? JSON.parse(text)
    : text;
}

/** Asserts status, body and the content type that goes with the body (none for an empty one). */
async function expectAnswer(
  response: Response,
  expected: { status: number; body: unknown },
): Promise<void> {
  expect(response.status).toBe(expected.status);
  const contentType =
    expected.body === ''
      ? null
      : typeof expected.body === 'string'
        ? 'text/plain; charset=utf-8'
        : 'application/json; charset=utf-8';
  expect(response.headers.get('content-type')).toBe(contentType);
  expect(await bodyOf(response)).toEqual(expected.body);
  expect(response.headers.get('x-slack-no-retry')).toBeNull();
}

async function assertFollowUp(h: Harness, expected: ExpectedFollowUp): Promise<void> {
  await h.adapter.drainFollowUps();
  if (expected === undefined) {
    expect(h.fake.calls).toEqual([]);
    return;
  }
  expect(h.fake.calls).toHaveLength(1);
  const call = h.fake.calls[0]!;
  expect(call.method).toBe(expected.method);
  if (expected.method === 'response_url') {
    expect(call.args).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      text: expected.text,
    });
  } else {
    expect(call.token).toBe(BOT_TOKEN);
    expect(call.args).toEqual({ trigger_id: expect.any(String), view: busyView(expected.text) });
  }
}

const isRejection = (o: Observation) => o.type === 'admission_rejected';

describe.each(CASES)('$name', (shape) => {
  let h: Harness;
  let gate = deferred();
  afterEach(async () => {
    gate.resolve();
    await h.close();
  });

  it('is acknowledged as the table says when accepted, and handled', async () => {
    h = await startHarness({ adapter: { busyText: BUSY, unavailableText: UNAVAILABLE } });
    const handled = deferred<RtEvent>();
    h.runtime.on(
      () => true,
      (ctx) => {
        handled.resolve(ctx.event);
        return syncAnswer(ctx.event);
      },
    );
    const payload = shape.build(h.fake);
    const response = await h.send(payload);
    await expectAnswer(response, shape.accepted);
    const event = await handled.promise;
    expect(event.adapter).toBe('slack');
    await h.adapter.drainFollowUps();
    expect(h.fake.calls).toEqual([]);
  });

  it('answers the table row when the admission bound is saturated, never with x-slack-no-retry', async () => {
    h = await startHarness({
      runtime: { maxDetached: 1 },
      adapter: {
        busyText: BUSY,
        unavailableText: UNAVAILABLE,
        // Sync shapes have no cap: make them deferred so the bound applies.
        dispatchModes: { view_submission: 'deferred', block_suggestion: 'deferred' },
      },
    });
    gate = deferred();
    const seen: RtEvent[] = [];
    h.runtime.on(
      () => true,
      async (ctx) => {
        seen.push(ctx.event);
        if (ctx.event.text === 'hold the slot') await gate.promise;
      },
    );
    const blocker = await h.send(buildMessageEvent({ text: 'hold the slot', channel: 'CBLOCK' }));
    expect(blocker.status).toBe(200);

    const response = await h.send(shape.build(h.fake));
    const expected = shape.rejected(BUSY);
    await expectAnswer(response, expected);
    expect(await h.observed(isRejection)).toMatchObject({ reason: 'capacity', adapter: 'slack' });
    await assertFollowUp(h, expected.followUp);

    gate.resolve();
    await h.observed((o) => o.type === 'dispatch_finished' && o.outcome === 'completed');
    expect(seen.map((event) => event.text)).toEqual(['hold the slot']);
  });

  it('answers the table row with unavailable wording once shutdown has started', async () => {
    h = await startHarness({ adapter: { busyText: BUSY, unavailableText: UNAVAILABLE } });
    h.runtime.on(
      () => true,
      (ctx) => syncAnswer(ctx.event),
    );
    const stopping = h.runtime.shutdown({ graceMs: 0 });
    const response = await h.send(shape.build(h.fake));
    const expected = shape.rejected(UNAVAILABLE);
    await expectAnswer(response, expected);
    expect(await h.observed(isRejection)).toMatchObject({ reason: 'shutdown' });
    await stopping;
    await assertFollowUp(h, expected.followUp);
  });

  it('answers the table row with unavailable wording when the State cannot mark it (prelude error)', async () => {
    h = await startHarness({
      state: unreachableState(),
      adapter: { busyText: BUSY, unavailableText: UNAVAILABLE },
    });
    const seen: RtEvent[] = [];
    h.runtime.on(
      () => true,
      (ctx) => {
        seen.push(ctx.event);
        return syncAnswer(ctx.event);
      },
    );
    const response = await h.send(shape.build(h.fake));
    const expected = shape.rejected(UNAVAILABLE);
    await expectAnswer(response, expected);
    await h.observed((o) => o.type === 'prelude_error');
    await assertFollowUp(h, expected.followUp);
    expect(seen).toEqual([]);
  });
});

describe('the dedupe policy of shapes Slack never redelivers', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('marks a block_suggestion for 3 s, not for the runtime-wide hour, and answers every keystroke', async () => {
    const marks: [string, number][] = [];
    const state = stateWith(createMemoryState(), (inner) => ({
      markEvent: (key, ttlMs) => {
        marks.push([key, ttlMs]);
        return inner.markEvent(key, ttlMs);
      },
    }));
    h = await startHarness({ state });
    h.runtime.onSuggestion('external_select', (ctx) => syncAnswer(ctx.event));
    h.runtime.onMessage(() => {});
    for (const value of ['a', 'ab', 'ab']) {
      const response = await h.send(buildBlockSuggestion({ value }));
      expect(await bodyOf(response)).toMatchObject({ options: [{ value: 'ab-1' }] });
    }
    await h.send(buildMessageEvent());
    expect(marks.map(([, ttlMs]) => ttlMs)).toEqual([3000, 3000, 3000, 3_600_000]);
  });
});
