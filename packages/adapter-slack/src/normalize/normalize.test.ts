import type { RtEvent } from '@rt/core';
import { fakeRuntimeHandle } from '@rt/testing/adapter';
import {
  buildAppMentionEvent,
  buildBlockActions,
  buildBlockSuggestion,
  buildEventCallback,
  buildMessageAction,
  buildMessageEvent,
  buildReactionEvent,
  buildShortcut,
  buildSlashCommand,
  buildViewClosed,
  buildViewSubmission,
  createSlackSigner,
  interactivePayload,
  type SlackTestPayload,
} from '@rt/testing/slack';
import { describe, expect, it } from 'vitest';
import { BUSY_OPTION_VALUE } from '../respond/busy-surfaces.js';
import { createSlackAdapter } from '../slack-adapter.js';
import { SECRET } from '../test-support/harness.js';

async function run(
  payload: SlackTestPayload,
): Promise<{ event: RtEvent | undefined; response: Response }> {
  const adapter = createSlackAdapter({ signingSecret: SECRET, botToken: 'x' });
  const runtime = fakeRuntimeHandle();
  adapter.attach(runtime);
  const response = await adapter.handler(createSlackSigner(SECRET).request(payload));
  return { event: runtime.dispatched[0], response };
}

async function eventOf(payload: SlackTestPayload): Promise<RtEvent> {
  const { event } = await run(payload);
  if (event === undefined) throw new Error('not dispatched');
  return event;
}

describe('Events API normalisation', () => {
  it('maps a message to kind message with thread = ts for a top-level message', async () => {
    const payload = buildMessageEvent({
      text: 'hi',
      ts: '9.1',
      channel: 'C1',
      user: 'U1',
      eventId: 'Ev9',
    });
    expect(await eventOf(payload)).toMatchObject({
      adapter: 'slack',
      tenant: 'T0TEAM',
      id: 'Ev9',
      kind: 'message',
      shape: 'event_callback',
      type: 'message',
      channel: 'C1',
      thread: '9.1',
      user: 'U1',
      text: 'hi',
    });
  });

  it('uses thread_ts for replies, app_mention → mention, reactions → reaction with the emoji', async () => {
    expect((await eventOf(buildMessageEvent({ ts: '9.2', threadTs: '9.1' }))).thread).toBe('9.1');
    expect((await eventOf(buildAppMentionEvent())).kind).toBe('mention');
    expect(
      await eventOf(buildReactionEvent({ reaction: 'tada', itemTs: '3.3', channel: 'C3' })),
    ).toMatchObject({
      kind: 'reaction',
      type: 'reaction_added',
      text: 'tada',
      channel: 'C3',
      thread: '3.3',
    });
  });

  it('marks messages and mentions in an im channel direct, and nothing else', async () => {
    const dm = await eventOf(buildMessageEvent({ channel: 'D1', channelType: 'im' }));
    expect(dm).toMatchObject({ kind: 'message', channel: 'D1', direct: true });
    for (const channelType of ['channel', 'group', 'mpim'] as const) {
      expect(await eventOf(buildMessageEvent({ channelType }))).not.toHaveProperty('direct');
    }
    expect(await eventOf(buildAppMentionEvent())).not.toHaveProperty('direct');
    expect(await eventOf(buildReactionEvent())).not.toHaveProperty('direct');
  });

  it('makes a direct message mentioning the bot a direct mention falling back to message', async () => {
    const botUserId = 'UBOT';
    const adapter = createSlackAdapter({ signingSecret: SECRET, botToken: 'x', botUserId });
    const runtime = fakeRuntimeHandle();
    adapter.attach(runtime);
    const payload = buildMessageEvent({ channelType: 'im', text: `<@${botUserId}> help` });
    await adapter.handler(createSlackSigner(SECRET).request(payload));
    expect(runtime.dispatched[0]).toMatchObject({
      kind: 'mention',
      fallbackKind: 'message',
      direct: true,
    });
  });

  it('maps other event types to raw with their type', async () => {
    const event = await eventOf(buildEventCallback({ type: 'team_join', user: { id: 'U9' } }));
    expect(event).toMatchObject({ kind: 'raw', type: 'team_join', user: undefined });
  });

  it('takes the tenant from authorizations[0]: the enterprise for org-wide installs', async () => {
    const org = buildMessageEvent({ teamId: 'T1', enterpriseId: 'E1', isEnterpriseInstall: true });
    expect((await eventOf(org)).tenant).toBe('E1');
    const grid = buildMessageEvent({ teamId: 'T1', enterpriseId: 'E1' });
    expect((await eventOf(grid)).tenant).toBe('T1');
  });

  it('falls back to the top-level team without authorizations', async () => {
    const payload = buildMessageEvent({ teamId: 'T7' });
    const data = { ...payload.data, authorizations: undefined };
    const body = JSON.stringify(data);
    expect((await eventOf({ ...payload, body, data })).tenant).toBe('T7');
  });
});

describe('direct invocation normalisation', () => {
  it('maps a slash command with its trigger id as the event id', async () => {
    const payload = buildSlashCommand({
      command: '/deploy',
      text: 'prod',
      triggerId: 'trig-1',
      channelId: 'C2',
    });
    expect(await eventOf(payload)).toMatchObject({
      kind: 'command',
      shape: 'slash_command',
      command: 'deploy',
      text: 'prod',
      id: 'trig-1',
      channel: 'C2',
      tenant: 'T0TEAM',
    });
  });

  it('keys org-wide slash commands on the enterprise', async () => {
    const payload = buildSlashCommand({ enterpriseId: 'E2', isEnterpriseInstall: true });
    expect((await eventOf(payload)).tenant).toBe('E2');
  });

  it('maps block_actions from a message with its thread and action id', async () => {
    const payload = buildBlockActions({
      actionId: 'approve',
      messageTs: '4.4',
      channelId: 'C4',
      triggerId: 't-4',
    });
    expect(await eventOf(payload)).toMatchObject({
      kind: 'action',
      shape: 'block_actions',
      actionId: 'approve',
      channel: 'C4',
      thread: '4.4',
      id: 't-4',
    });
  });

  it('maps message_action and shortcut to kind shortcut with their callback id as shortcutId', async () => {
    expect(await eventOf(buildMessageAction({ callbackId: 'save_msg' }))).toMatchObject({
      kind: 'shortcut',
      shape: 'message_action',
      shortcutId: 'save_msg',
    });
    expect(await eventOf(buildShortcut({ callbackId: 'new_ticket' }))).toMatchObject({
      kind: 'shortcut',
      shape: 'shortcut',
      shortcutId: 'new_ticket',
    });
  });

  it('keys org-wide interactive payloads (team null) on the enterprise, else user.team_id', async () => {
    expect(
      (await eventOf(buildShortcut({ isEnterpriseInstall: true, enterpriseId: 'E3' }))).tenant,
    ).toBe('E3');
    const payload = buildShortcut({ teamId: 'T5' });
    const data = { ...payload.data, team: null };
    const body = new URLSearchParams({ payload: JSON.stringify(data) }).toString();
    expect((await eventOf({ ...payload, body, data })).tenant).toBe('T5');
  });

  it('prefers view.app_installed_team_id for views', async () => {
    const payload = buildViewSubmission({
      teamId: 'TUSER',
      view: { teamId: 'TAPP', callbackId: 'cb' },
    });
    expect(await eventOf(payload)).toMatchObject({
      tenant: 'TAPP',
      kind: 'form_submit',
      shape: 'view_submission',
      formId: 'cb',
    });
  });

  it('maps view_closed to kind form_close, its id derived from view.id + view.hash', async () => {
    const payload = buildViewClosed({ view: { viewId: 'V1', hash: 'h1' } });
    expect(await eventOf(payload)).toMatchObject({
      kind: 'form_close',
      shape: 'view_closed',
      id: 'view:V1:h1',
    });
  });

  it('gives every block_suggestion receipt its own id (the same query typed twice is two requests)', async () => {
    const payload = buildBlockSuggestion({ value: 'ab', actionId: 'pick' });
    const first = await eventOf(payload);
    const second = await eventOf(payload);
    expect(first).toMatchObject({ kind: 'suggestion', actionId: 'pick', text: 'ab' });
    expect(first.id).not.toBe(second.id);
  });

  it('asks for a 3 s dedupe mark for a block_suggestion, and the default mark for other shapes', async () => {
    expect(await eventOf(buildBlockSuggestion())).toMatchObject({ dedupeTtlMs: 3000 });
    expect((await eventOf(buildViewClosed())).dedupeTtlMs).toBeUndefined();
  });
});

describe('malformed interactive payloads', () => {
  it.each([
    ['a string', 'approve'],
    ['an object', { action_id: 'approve' }],
    ['an array holding a non-object', ['approve']],
  ])(
    'answers 400 with a clear reason, dispatching nothing, when actions is %s',
    async (_, actions) => {
      const { data } = buildBlockActions({ actionId: 'approve' });
      const { event, response } = await run(interactivePayload({ ...data, actions }));
      expect(event).toBeUndefined();
      expect(response.status).toBe(400);
      expect(await response.text()).toBe(
        'Bad Request: block_actions actions must be an array of objects',
      );
    },
  );
});

describe('the busy placeholder option', () => {
  it('is never dispatched when chosen in a select', async () => {
    const { event, response } = await run(
      buildBlockActions({ from: 'modal', selectedValue: BUSY_OPTION_VALUE }),
    );
    expect(response.status).toBe(200);
    expect(event).toBeUndefined();
  });

  it('is answered with an error on its block when submitted in a view', async () => {
    const payload = buildViewSubmission({
      view: {
        blocks: [
          {
            type: 'input',
            block_id: 'pick_block',
            element: { type: 'external_select', action_id: 'pick' },
          },
        ],
        stateValues: {
          pick_block: {
            pick: { type: 'external_select', selected_option: { value: BUSY_OPTION_VALUE } },
          },
        },
      },
    });
    const { event, response } = await run(payload);
    expect(event).toBeUndefined();
    expect(await response.json()).toEqual({
      response_action: 'errors',
      errors: { pick_block: expect.stringContaining('busy') },
    });
  });
});

describe('the busy placeholder option held outside an input block', () => {
  const held = { pick: { type: 'external_select', selected_option: { value: BUSY_OPTION_VALUE } } };
  const accessory = {
    type: 'section',
    block_id: 'section_pick',
    text: { type: 'mrkdwn', text: 'Pick one' },
    accessory: { type: 'external_select', action_id: 'pick' },
  };

  it('is answered with an error on the first input block, never on the non-input block', async () => {
    const input = {
      type: 'input',
      block_id: 'title_block',
      label: { type: 'plain_text', text: 'Title' },
      element: { type: 'plain_text_input', action_id: 'title' },
    };
    const payload = buildViewSubmission({
      view: {
        blocks: [accessory, input],
        stateValues: { section_pick: held, title_block: { title: { value: 'typed' } } },
      },
    });
    const { event, response } = await run(payload);
    expect(event).toBeUndefined();
    expect(await response.json()).toEqual({
      response_action: 'errors',
      errors: { title_block: expect.stringContaining('busy') },
    });
  });

  it('is answered by pushing a busy view when the modal has no input block', async () => {
    const payload = buildViewSubmission({
      view: { blocks: [accessory], stateValues: { section_pick: held } },
    });
    const { event, response } = await run(payload);
    expect(event).toBeUndefined();
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toMatchObject({
      response_action: 'push',
      view: { type: 'modal', blocks: [{ type: 'section' }] },
    });
  });
});

describe('neutral action ids', () => {
  it('strips the |n a repeated neutral id got, and leaves other action ids alone', async () => {
    const { normalizeInteractive } = await import('./normalize-interactive.js');
    const actionIdOf = (actionId: string) => {
      const payload = JSON.parse(
        new URLSearchParams(buildBlockActions({ actionId }).body).get('payload') ?? '{}',
      );
      const result = normalizeInteractive(payload, { adapter: 'slack', receivedAt: 0 } as never);
      return result.type === 'event' ? result.event.actionId : undefined;
    };
    expect(actionIdOf('vote|1')).toBe('vote');
    expect(actionIdOf('vote|12')).toBe('vote');
    expect(actionIdOf('vote')).toBe('vote');
    expect(actionIdOf('a|b')).toBe('a|b');
  });
});
