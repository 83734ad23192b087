import { afterEach, describe, expect, it } from 'vitest';
import { hrefOf } from '../test-support/cookie-client.js';
import { type InstallBed, startInstallBed } from '../test-support/install-bed.js';

describe('the web-standard shell of the installer', () => {
  let bed: InstallBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('runs the whole flow through webHandler with web Requests and Responses', async () => {
    bed = await startInstallBed();
    const handler = bed.installer.webHandler;
    const page = await handler(new Request(`${bed.origin}/slack/install`));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const [cookie] = page.headers.getSetCookie();
    expect(cookie).toMatch(/^rt-slack-oauth-state=[^;]+; Secure; HttpOnly; Path=\/; Max-Age=600$/);
    const consent = await fetch(hrefOf(await page.text(), 'add-to-slack'));
    const approve = await fetch(hrefOf(await consent.text(), 'allow-T1'), { redirect: 'manual' });
    const location = approve.headers.get('location') as string;
    const done = await handler(
      new Request(location, { headers: { cookie: (cookie as string).split(';')[0] as string } }),
    );
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Team One');
    expect(done.headers.getSetCookie()[0]).toContain('rt-slack-oauth-state=deleted');
    expect(await bed.store.fetch({ teamId: 'T1', isEnterpriseInstall: false })).toBeDefined();
  });

  it('redirects straight to Slack with directInstall, and serves overridden pages', async () => {
    bed = await startInstallBed({
      installer: {
        directInstall: true,
        pages: { failure: (error) => `<p>custom failure ${error.reason}</p>` },
      },
    });
    const direct = await bed.installer.webHandler(new Request(`${bed.origin}/slack/install`));
    expect(direct.status).toBe(302);
    const target = new URL(direct.headers.get('location') as string);
    expect(target.href.startsWith(bed.fake.oauth?.authorizeUrl as string)).toBe(true);
    expect(target.searchParams.get('scope')).toBe('chat:write,app_mentions:read');
    expect(target.searchParams.get('redirect_uri')).toBe(`${bed.origin}/slack/oauth_redirect`);
    const failed = await bed.installer.webHandler(
      new Request(`${bed.origin}/slack/oauth_redirect`),
    );
    expect(failed.status).toBe(400);
    expect(await failed.text()).toBe('<p>custom failure code_missing</p>');
  });
});
