import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstallBed, startInstallBed } from '../test-support/install-bed.js';

const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

/**
 * The install flow once in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core through its executable path): the "Add to Slack" page, the fake's consent
 * page, the redirect and the success page, with the browser's own cookie handling.
 */
describe('the install flow in headless Chromium', () => {
  let context: BrowserContext;
  let profile: string;
  let bed: InstallBed;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `this test needs Chromium at ${CHROMIUM} (Debian/Ubuntu: apt-get install -y chromium; or set CHROMIUM_BIN)`,
      );
    }
    profile = mkdtempSync(join(tmpdir(), 'rt-chromium-'));
    // A fresh profile directory (Playwright's form of `--user-data-dir`).
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    bed = await startInstallBed();
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await bed?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it('installs a workspace by clicking through, and the browser keeps the state cookie', async () => {
    const page = await context.newPage();
    await page.goto(`${bed.origin}/slack/install`);
    const cookies = await context.cookies(bed.origin);
    expect(cookies.map((c) => c.name)).toContain('rt-slack-oauth-state');
    expect(cookies.find((c) => c.name === 'rt-slack-oauth-state')?.httpOnly).toBe(true);
    await page.click('#add-to-slack');
    await page.waitForSelector('#allow-T2');
    expect(await page.textContent('#scopes')).toBe('chat:write,app_mentions:read');
    await page.click('#allow-T2');
    await page.waitForSelector('#installed');
    expect(await page.textContent('body')).toContain('Team Two');
    expect(page.url()).toContain('/slack/oauth_redirect');
    const stored = await bed.store.fetch({ teamId: 'T2', isEnterpriseInstall: false });
    expect(stored?.bot?.token).toBe(bed.fake.oauth?.botTokenOf('T:T2'));
    expect((await context.cookies(bed.origin)).map((c) => c.name)).not.toContain(
      'rt-slack-oauth-state',
    );
    await page.close();
  });

  it('refuses the redirect once the browser lost the state cookie (another browser)', async () => {
    const page = await context.newPage();
    await page.goto(`${bed.origin}/slack/install`);
    await page.click('#add-to-slack');
    await page.waitForSelector('#allow-T1');
    const approve = await page.getAttribute('#allow-T1', 'href');
    await context.clearCookies();
    const stranger = await context.newPage();
    await stranger.goto(approve as string);
    await stranger.waitForSelector('#install-failed');
    expect(await stranger.textContent('body')).toContain('state_not_for_browser');
    expect(await bed.store.fetch({ teamId: 'T1', isEnterpriseInstall: false })).toBeUndefined();
    await page.close();
    await stranger.close();
  });
});
