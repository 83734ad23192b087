/**
 * The Slack answer table of docs/contract.md §9.1 as adapter-conformance rows: per payload shape, the
 * acknowledgement when accepted, and the refusal (acknowledgement plus follow-up platform call)
 * with a given text.
 */
import type { RtEvent, State } from '@rt/core';
import type {
  ConformanceBot,
  ConformanceShape,
  ExpectedRefusal,
  ReceivedAnswer,
} from '@rt/testing/adapter';
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
  type FakeSlackApiCall,
  type SlackTestPayload,
} from '@rt/testing/slack';
import { expect } from 'vitest';
import { BUSY_OPTION_VALUE } from '../respond/busy-surfaces.js';
import { BOT_TOKEN, type Harness } from './harness.js';

/** A conformance bot that also exposes the fake Slack Web API it points at. */
export interface SlackConformanceBot extends ConformanceBot {
  readonly fake: FakeSlackApi;
}

/**
 * The HTTP harness `h` as a conformance bot: requests go over the harness's transport, and
 * the platform calls are the fake's once the follow-ups drained. `state` is the State the bot
 * reports (default the harness's own).
 */
export function slackConformanceBot(h: Harness, state: State = h.state): SlackConformanceBot {
  return {
    runtime: h.runtime,
    state,
    adapterName: h.adapter.name,
    fake: h.fake,
    send: (request) => h.serve(request),
    platformCalls: async () => {
      await h.adapter.drainFollowUps();
      return [...h.fake.calls];
    },
    close: () => h.close(),
  };
}

/** The busy view Slack's refusals open or push, with `text`. */
export const busyView = (text: string) => ({
  type: 'modal',
  title: { type: 'plain_text', text: 'Please try again' },
  close: { type: 'plain_text', text: 'Close' },
  blocks: [{ type: 'section', text: { type: 'plain_text', text } }],
});

/** What the handlers of sync shapes answer (the accepted bodies below). */
export function syncAnswer(event: RtEvent): unknown {
  if (event.shape === 'view_submission') return { response_action: 'clear' };
  if (event.shape === 'block_suggestion') {
    return [{ text: { type: 'plain_text', text: `${event.text} result` }, value: 'ab-1' }];
  }
  return undefined;
}

/** Checks body and content type (none for an empty body), and that Slack is never told not to retry. */
const body = (expected: unknown) => (answer: ReceivedAnswer) => {
  const contentType =
    expected === ''
      ? null
      : typeof expected === 'string'
        ? 'text/plain; charset=utf-8'
        : 'application/json; charset=utf-8';
  expect(answer.headers.get('content-type')).toBe(contentType);
  expect(typeof expected === 'string' ? answer.text : answer.json).toEqual(expected);
  expect(answer.headers.get('x-slack-no-retry')).toBeNull();
};

/** A refusal answered `status` with `expected` as its body, and maybe one follow-up call. */
function refusal(
  status: number,
  expected: unknown,
  followUp?: (call: FakeSlackApiCall) => void,
): ExpectedRefusal {
  return {
    status,
    check: body(expected),
    ...(followUp === undefined
      ? {}
      : {
          followUp: (calls: readonly unknown[]) => {
            expect(calls).toHaveLength(1);
            followUp(calls[0] as FakeSlackApiCall);
          },
        }),
  };
}

const ephemeralViaResponseUrl = (text: string) => (call: FakeSlackApiCall) => {
  expect(call.method).toBe('response_url');
  expect(call.args).toEqual({ response_type: 'ephemeral', replace_original: false, text });
};

const busyViewVia =
  (method: 'views.open' | 'views.push', text: string) => (call: FakeSlackApiCall) => {
    expect(call.method).toBe(method);
    expect(call.token).toBe(BOT_TOKEN);
    expect(call.args).toEqual({ trigger_id: expect.any(String), view: busyView(text) });
  };

const emptyAck = { status: 200, check: body('') };

/** Every shape the Slack HTTP adapter dispatches, with its row of the docs/contract.md §9.1 table. */
export const SLACK_SHAPES: readonly ConformanceShape<SlackTestPayload, SlackConformanceBot>[] = [
  {
    name: 'event_callback message',
    payload: () => buildMessageEvent({ text: 'hi', threadTs: '1.1' }),
    accepted: emptyAck,
    refused: () => refusal(503, 'Service Unavailable'),
  },
  {
    name: 'event_callback app_mention',
    payload: () => buildAppMentionEvent(),
    accepted: emptyAck,
    refused: () => refusal(503, 'Service Unavailable'),
  },
  {
    name: 'event_callback reaction_added',
    payload: () => buildReactionEvent(),
    accepted: emptyAck,
    refused: () => refusal(503, 'Service Unavailable'),
  },
  {
    name: 'slash command',
    payload: (bot) =>
      buildSlashCommand({ command: '/deploy', responseUrl: bot.fake.responseUrl() }),
    accepted: emptyAck,
    refused: (text) => refusal(200, { response_type: 'ephemeral', text }),
  },
  {
    name: 'block_actions from a message',
    payload: (bot) => buildBlockActions({ from: 'message', responseUrl: bot.fake.responseUrl() }),
    accepted: emptyAck,
    refused: (text) => refusal(200, '', ephemeralViaResponseUrl(text)),
  },
  {
    name: 'block_actions in a modal',
    payload: () => buildBlockActions({ from: 'modal' }),
    accepted: emptyAck,
    refused: (text) => refusal(200, '', busyViewVia('views.push', text)),
  },
  {
    name: 'block_actions in App Home',
    payload: () => buildBlockActions({ from: 'home' }),
    accepted: emptyAck,
    refused: (text) => refusal(200, '', busyViewVia('views.open', text)),
  },
  {
    name: 'message_action',
    payload: (bot) => buildMessageAction({ responseUrl: bot.fake.responseUrl() }),
    accepted: emptyAck,
    refused: (text) => refusal(200, '', ephemeralViaResponseUrl(text)),
  },
  {
    name: 'global shortcut',
    payload: () => buildShortcut(),
    accepted: emptyAck,
    refused: (text) => refusal(200, '', busyViewVia('views.open', text)),
  },
  {
    name: 'view_submission with an input block',
    payload: () => buildViewSubmission({ withInput: true }),
    sync: true,
    accepted: { status: 200, check: body({ response_action: 'clear' }) },
    refused: (text) => refusal(200, { response_action: 'errors', errors: { input_block: text } }),
  },
  {
    name: 'view_submission without an input block',
    payload: () => buildViewSubmission({ withInput: false }),
    sync: true,
    accepted: { status: 200, check: body({ response_action: 'clear' }) },
    refused: (text) => refusal(200, { response_action: 'push', view: busyView(text) }),
  },
  {
    name: 'view_closed',
    payload: () => buildViewClosed(),
    accepted: emptyAck,
    refused: () => refusal(200, ''),
  },
  {
    name: 'block_suggestion',
    payload: () => buildBlockSuggestion({ value: 'ab' }),
    sync: true,
    accepted: {
      status: 200,
      check: body({
        options: [{ text: { type: 'plain_text', text: 'ab result' }, value: 'ab-1' }],
      }),
    },
    refused: (text) =>
      refusal(200, { options: [{ text: { type: 'plain_text', text }, value: BUSY_OPTION_VALUE }] }),
  },
];
