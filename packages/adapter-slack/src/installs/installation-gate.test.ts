import type { RtEvent } from '@rt/core';
import {
  buildAppMentionEvent,
  buildBlockActions,
  buildEventCallback,
  buildShortcut,
  buildSlashCommand,
} from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { SlackUnknownInstallationError } from '../errors.js';
import type { SlackInstallation } from '../normalize/installation.js';
import { type Harness, startHarness } from '../test-support/harness.js';
import type { SlackInstallationSource, SlackRevocation } from './installation-source.js';

/** A source over a map of team id -> token, recording revocations. */
function mapSource(tokens: Map<string, string>) {
  const revoked: { team: string | undefined; revocation: SlackRevocation }[] = [];
  let failing: Error | undefined;
  const source: SlackInstallationSource = {
    botToken: async (installation: SlackInstallation) => {
      if (failing !== undefined) throw failing;
      const token = tokens.get(installation.teamId ?? '');
      if (token === undefined) throw new SlackUnknownInstallationError('not installed');
      return token;
    },
    revoke: async (installation, revocation) => {
      if (failing !== undefined) throw failing;
      revoked.push({ team: installation.teamId, revocation });
      tokens.delete(installation.teamId ?? '');
    },
  };
  return { source, revoked, fail: (error: Error | undefined) => (failing = error) };
}

describe('the installation gate', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  async function start(tokens: Map<string, string>) {
    const source = mapSource(tokens);
    const handled: RtEvent[] = [];
    harness = await startHarness({ adapter: { installations: source.source } });
    harness.runtime.onMention(async (ctx) => {
      handled.push(ctx.event);
      await ctx.reply('hi');
    });
    harness.runtime.onEvent('app_uninstalled', (ctx) => {
      handled.push(ctx.event);
    });
    harness.runtime.onCommand('/hello', (ctx) => {
      handled.push(ctx.event);
    });
    return { ...source, handled, h: harness };
  }

  it('dispatches a known installation and replies with its own token', async () => {
    const { h, handled } = await start(
      new Map([
        ['T1', 'xoxb-one'],
        ['T2', 'xoxb-two'],
      ]),
    );
    expect((await h.send(buildAppMentionEvent({ teamId: 'T2' }))).status).toBe(200);
    const [call] = await h.fake.waitForCalls('chat.postMessage');
    expect(call?.token).toBe('xoxb-two');
    expect(handled).toHaveLength(1);
  });

  it('answers an event of an unknown installation 200 without dispatch, with a notice', async () => {
    const { h, handled } = await start(new Map([['T1', 'xoxb-one']]));
    const response = await h.send(buildAppMentionEvent({ teamId: 'T9' }));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    const notice = await h.observed(
      (o) => o.type === 'adapter_notice' && o.name === 'unknown_installation',
    );
    expect(notice).toMatchObject({ detail: { tenant: 'T9' } });
    expect(handled).toHaveLength(0);
  });

  it('tells the user of a slash command that the workspace is not installed', async () => {
    const { h, handled } = await start(new Map());
    const response = await h.send(buildSlashCommand({ teamId: 'T9', command: '/hello' }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      response_type: 'ephemeral',
      text: 'This app is not installed in this workspace. Ask a workspace admin to install it.',
    });
    expect(handled).toHaveLength(0);
  });

  it('tells the user of a message button through response_url; a shortcut gets the plain ack', async () => {
    const { h, handled } = await start(new Map());
    const responseUrl = h.fake.responseUrl();
    const button = buildBlockActions({ teamId: 'T9', from: 'message', responseUrl });
    expect((await h.send(button)).status).toBe(200);
    const [post] = await h.fake.waitForCalls('response_url');
    expect(post?.args).toMatchObject({
      response_type: 'ephemeral',
      text: 'This app is not installed in this workspace. Ask a workspace admin to install it.',
    });
    const shortcut = await h.send(buildShortcut({ teamId: 'T9' }));
    expect(shortcut.status).toBe(200);
    expect(await shortcut.text()).toBe('');
    expect(h.fake.callsTo('views.open')).toHaveLength(0);
    expect(handled).toHaveLength(0);
  });

  it('refuses as unavailable (503, Slack redelivers) when the source cannot tell', async () => {
    const { h, handled, fail } = await start(new Map([['T1', 'xoxb-one']]));
    fail(new Error('store down'));
    const response = await h.send(buildAppMentionEvent({ teamId: 'T1' }));
    expect(response.status).toBe(503);
    await h.observed((o) => o.type === 'adapter_notice' && o.name === 'installation_unavailable');
    expect(handled).toHaveLength(0);
    fail(undefined);
    expect((await h.send(buildAppMentionEvent({ teamId: 'T1' }))).status).toBe(200);
  });

  it('revokes at app_uninstalled before dispatching it, and the next event is unknown', async () => {
    const tokens = new Map([['T1', 'xoxb-one']]);
    const { h, handled, revoked } = await start(tokens);
    const uninstall = buildEventCallback({ type: 'app_uninstalled' }, { teamId: 'T1' });
    expect((await h.send(uninstall)).status).toBe(200);
    expect(revoked).toEqual([{ team: 'T1', revocation: { kind: 'app_uninstalled' } }]);
    await h.observed((o) => o.type === 'dispatch_finished');
    expect(handled.map((event) => event.shape)).toEqual(['event_callback']);
    await h.send(buildAppMentionEvent({ teamId: 'T1' }));
    await h.observed((o) => o.type === 'adapter_notice' && o.name === 'unknown_installation');
  });

  it('passes the revoked bot and user ids of tokens_revoked', async () => {
    const { h, revoked } = await start(new Map([['T1', 'xoxb-one']]));
    const event = buildEventCallback(
      { type: 'tokens_revoked', tokens: { oauth: ['U1'], bot: ['UBOT'] } },
      { teamId: 'T1' },
    );
    expect((await h.send(event)).status).toBe(200);
    expect(revoked[0]?.revocation).toEqual({
      kind: 'tokens_revoked',
      botUserIds: ['UBOT'],
      userIds: ['U1'],
    });
  });

  it('asks Slack to redeliver an uninstall it could not record', async () => {
    const { h, fail, handled } = await start(new Map([['T1', 'xoxb-one']]));
    fail(new Error('store down'));
    const uninstall = buildEventCallback({ type: 'app_uninstalled' }, { teamId: 'T1' });
    expect((await h.send(uninstall)).status).toBe(503);
    expect(handled).toHaveLength(0);
  });

  it('refuses installations together with a token or a resolver', () => {
    const { source } = mapSource(new Map());
    return expect(
      startHarness({ adapter: { installations: source, botToken: 'xoxb-x' } }),
    ).rejects.toThrow(/one of botToken, tokenResolver or installations/);
  });
});
