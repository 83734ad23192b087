import { afterEach, describe, expect, it } from 'vitest';
import { InstallationStoreError } from '../errors.js';
import type { InstallationStore } from '../store/installation-store.js';
import { createMemoryInstallationStore } from '../store/memory-store.js';
import { CookieClient, hrefOf } from '../test-support/cookie-client.js';
import { type InstallBed, startInstallBed } from '../test-support/install-bed.js';

/** Walks to Slack's redirect back to the app without following it: its URL and the client. */
async function redirectFor(bed: InstallBed, teamId = 'T1') {
  const client = new CookieClient();
  const page = await client.get(`${bed.origin}/slack/install`);
  const consent = await client.get(hrefOf(page.body, 'add-to-slack'));
  const approve = await fetch(hrefOf(consent.body, `allow-${teamId}`), { redirect: 'manual' });
  const location = approve.headers.get('location');
  if (location === null) throw new Error('the fake did not redirect');
  return { client, redirect: new URL(location) };
}

function failedWith(bed: InstallBed, reason: string) {
  return bed.observations.some(
    (o) =>
      o.type === 'adapter_notice' &&
      o.name === 'install_failed' &&
      (o.detail as { reason?: string })?.reason === reason,
  );
}

async function nothingStored(bed: InstallBed) {
  expect(await bed.store.fetch({ teamId: 'T1', isEnterpriseInstall: false })).toBeUndefined();
}

describe('the redirect path refuses what it cannot trust, storing nothing', () => {
  let bed: InstallBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('refuses a tampered state with the failure page (400)', async () => {
    bed = await startInstallBed();
    const { client, redirect } = await redirectFor(bed);
    const state = redirect.searchParams.get('state') as string;
    const [body, signature] = state.split('.') as [string, string];
    const forged = `${Buffer.from(Buffer.from(body, 'base64url').toString().replace('"t":', '"t":1,"x":')).toString('base64url')}.${signature}`;
    redirect.searchParams.set('state', forged);
    client.setCookie('127.0.0.1', 'rt-slack-oauth-state', forged);
    const answer = await client.get(redirect.href);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('state_invalid');
    expect(failedWith(bed, 'state_invalid')).toBe(true);
    expect(bed.fake.callsTo('oauth.v2.access')).toHaveLength(0);
    await nothingStored(bed);
  });

  it('refuses a replayed state: the second use of one install link fails', async () => {
    bed = await startInstallBed();
    const { client, redirect } = await redirectFor(bed);
    const cookie = client.cookies('127.0.0.1').get('rt-slack-oauth-state') as string;
    expect((await client.get(redirect.href)).status).toBe(200);
    await bed.store.delete({ teamId: 'T1', isEnterpriseInstall: false });
    client.setCookie('127.0.0.1', 'rt-slack-oauth-state', cookie);
    const replay = await client.get(redirect.href);
    expect(replay.status).toBe(400);
    expect(replay.body).toContain('state_replayed');
    await nothingStored(bed);
  });

  it('refuses an expired state', async () => {
    let now = Date.now();
    bed = await startInstallBed({ installer: { clock: () => now, stateTtlMs: 60_000 } });
    const { client, redirect } = await redirectFor(bed);
    now += 60_001;
    const answer = await client.get(redirect.href);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('state_expired');
    await nothingStored(bed);
  });

  it('refuses a state started in another browser (no matching cookie)', async () => {
    bed = await startInstallBed();
    const { redirect } = await redirectFor(bed);
    const answer = await new CookieClient().get(redirect.href);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('state_not_for_browser');
    await nothingStored(bed);
  });

  it('refuses a redirect without code, and a cancelled consent', async () => {
    bed = await startInstallBed();
    const { client, redirect } = await redirectFor(bed);
    redirect.searchParams.delete('code');
    const missing = await client.get(redirect.href);
    expect(missing.status).toBe(400);
    expect(missing.body).toContain('code_missing');
    const page = await client.get(`${bed.origin}/slack/install`);
    const consent = await client.get(hrefOf(page.body, 'add-to-slack'));
    const cancelled = await client.get(hrefOf(consent.body, 'cancel'));
    expect(cancelled.status).toBe(400);
    expect(cancelled.body).toContain('access_denied');
    await nothingStored(bed);
  });

  it("shows a clear page when oauth.v2.access fails, with Slack's error in the notice", async () => {
    bed = await startInstallBed();
    bed.fake.fail('oauth.v2.access', { error: 'invalid_code' });
    const { client, redirect } = await redirectFor(bed);
    const answer = await client.get(redirect.href);
    expect(answer.status).toBe(502);
    expect(answer.body).toContain('Slack refused the installation');
    const notice = bed.observations.find(
      (o) => o.type === 'adapter_notice' && o.name === 'install_failed',
    );
    expect(notice).toMatchObject({
      detail: { reason: 'exchange_failed', slackError: 'invalid_code' },
    });
    await nothingStored(bed);
  });

  it('shows a clear page when the store is down during the redirect, and nothing is half stored', async () => {
    const inner = createMemoryInstallationStore();
    let down = true;
    const store: InstallationStore = {
      store: async (installation, signal) => {
        if (down) throw new InstallationStoreError('storing an installation failed');
        return inner.store(installation, signal);
      },
      fetch: (lookup, signal) => inner.fetch(lookup, signal),
      delete: (lookup, signal) => inner.delete(lookup, signal),
    };
    bed = await startInstallBed({ store });
    const { client, redirect } = await redirectFor(bed);
    const answer = await client.get(redirect.href);
    expect(answer.status).toBe(503);
    expect(answer.body).toContain('could not be saved');
    expect(failedWith(bed, 'store_failed')).toBe(true);
    expect(inner.size).toBe(0);
    down = false;
    const again = await redirectFor(bed);
    expect((await again.client.get(again.redirect.href)).status).toBe(200);
    expect(inner.size).toBe(1);
  });

  it('answers 405 to anything but GET and 404 off its paths', async () => {
    bed = await startInstallBed();
    expect((await fetch(`${bed.origin}/slack/install`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${bed.origin}/elsewhere`)).status).toBe(404);
  });
});
