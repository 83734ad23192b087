import { buildAppMentionEvent, buildEventCallback } from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { CookieClient, hrefOf } from '../test-support/cookie-client.js';
import { type InstallBed, startInstallBed } from '../test-support/install-bed.js';

async function install(bed: InstallBed, client: CookieClient, teamId: string) {
  const page = await client.get(`${bed.origin}/slack/install`);
  expect(page.status).toBe(200);
  const consent = await client.get(hrefOf(page.body, 'add-to-slack'));
  expect(consent.status).toBe(200);
  return client.get(hrefOf(consent.body, `allow-${teamId}`));
}

describe('the install flow against the fake Slack, over real HTTP with cookies', () => {
  let bed: InstallBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('installs two workspaces, answers each with its own token, and forgets one at uninstall', async () => {
    bed = await startInstallBed();
    const b = bed;
    const client = new CookieClient();
    const first = await install(b, client, 'T1');
    expect(first.status).toBe(200);
    expect(first.body).toContain('Team One');
    expect(client.cookies('127.0.0.1').has('rt-slack-oauth-state')).toBe(false);
    const second = await install(b, new CookieClient(), 'T2');
    expect(second.body).toContain('Team Two');

    const stored = await b.store.fetch({ teamId: 'T1', isEnterpriseInstall: false });
    expect(stored?.bot?.token).toBe(b.fake.oauth?.botTokenOf('T:T1'));
    expect(stored?.bot?.scopes).toEqual(['chat:write', 'app_mentions:read']);

    b.runtime.onMention(async (ctx) => {
      await ctx.reply('hello');
    });
    expect((await b.send(buildAppMentionEvent({ teamId: 'T1' }))).status).toBe(200);
    expect((await b.send(buildAppMentionEvent({ teamId: 'T2' }))).status).toBe(200);
    const posts = await b.fake.waitForCalls('chat.postMessage', 2);
    expect(posts.map((call) => call.token).sort()).toEqual(
      [b.fake.oauth?.botTokenOf('T:T1'), b.fake.oauth?.botTokenOf('T:T2')].sort(),
    );

    const uninstall = buildEventCallback({ type: 'app_uninstalled' }, { teamId: 'T1' });
    expect((await b.send(uninstall)).status).toBe(200);
    expect(await b.store.fetch({ teamId: 'T1', isEnterpriseInstall: false })).toBeUndefined();
    expect(await b.store.fetch({ teamId: 'T2', isEnterpriseInstall: false })).toBeDefined();

    const after = await b.send(buildAppMentionEvent({ teamId: 'T1' }));
    expect(after.status).toBe(200);
    await b.observed((o) => o.type === 'adapter_notice' && o.name === 'unknown_installation');
    expect(b.fake.callsTo('chat.postMessage')).toHaveLength(2);
    expect(
      b.observations.filter((o) => o.type === 'adapter_notice' && o.name === 'install_completed'),
    ).toHaveLength(2);
  });

  it('installs org-wide into an Enterprise Grid org, keyed on the org', async () => {
    bed = await startInstallBed();
    const done = await install(bed, new CookieClient(), 'T3');
    expect(done.status).toBe(200);
    expect(done.body).toContain('Org One');
    const stored = await bed.store.fetch({ enterpriseId: 'E1', isEnterpriseInstall: true });
    expect(stored?.isEnterpriseInstall).toBe(true);
    expect(stored?.team).toBeUndefined();
    bed.runtime.onMention(async (ctx) => {
      await ctx.reply('hello org');
    });
    const event = buildAppMentionEvent({
      teamId: 'T77',
      enterpriseId: 'E1',
      isEnterpriseInstall: true,
    });
    expect((await bed.send(event)).status).toBe(200);
    const [post] = await bed.fake.waitForCalls('chat.postMessage');
    expect(post?.token).toBe(bed.fake.oauth?.botTokenOf('E:E1'));
  });

  it('stores user tokens apart and forgets only them at tokens_revoked for users', async () => {
    bed = await startInstallBed({ installer: { userScopes: ['search:read'] } });
    await install(bed, new CookieClient(), 'T1');
    const withUser = await bed.store.fetch({
      teamId: 'T1',
      isEnterpriseInstall: false,
      userId: 'UT1',
    });
    expect(withUser?.user.token).toMatch(/^xoxp-/);
    const revoked = buildEventCallback(
      { type: 'tokens_revoked', tokens: { oauth: ['UT1'], bot: [] } },
      { teamId: 'T1' },
    );
    expect((await bed.send(revoked)).status).toBe(200);
    const after = await bed.store.fetch({
      teamId: 'T1',
      isEnterpriseInstall: false,
      userId: 'UT1',
    });
    expect(after?.user.token).toBeUndefined();
    expect(after?.bot?.token).toBeDefined();
  });
});
