import { buildAppMentionEvent } from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import { InstallationRefreshError } from '../errors.js';
import { CookieClient, hrefOf } from '../test-support/cookie-client.js';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  type InstallBed,
  startInstallBed,
} from '../test-support/install-bed.js';
import { createInstallationTokens } from './installation-tokens.js';

const T1 = { teamId: 'T1', enterpriseId: undefined, isEnterpriseInstall: false };

async function installT1(bed: InstallBed) {
  const client = new CookieClient();
  const page = await client.get(`${bed.origin}/slack/install`);
  const consent = await client.get(hrefOf(page.body, 'add-to-slack'));
  expect((await client.get(hrefOf(consent.body, 'allow-T1'))).status).toBe(200);
}

describe('token rotation through the store', () => {
  let bed: InstallBed | undefined;
  afterEach(async () => {
    await bed?.close();
    bed = undefined;
  });

  it('two instances racing to refresh: one oauth.v2.access refresh, both use the new token', async () => {
    // Tokens live one hour and are refreshed in their last ten minutes.
    let now = Date.now();
    const clock = () => now;
    bed = await startInstallBed({
      oauth: { tokenRotation: { expiresInS: 3600 }, clock },
      tokens: { refreshPollMs: 5, refreshBeforeExpiryMs: 600_000, clock },
    });
    await installT1(bed);
    // Into the last ten minutes (the library stamps expiresAt on the real clock, in seconds).
    now += 3_100_000;
    const original = (await bed.store.fetch(T1))?.bot?.token;
    const other = createInstallationTokens({
      store: bed.store,
      state: bed.state,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      apiUrl: bed.fake.url,
      refreshPollMs: 5,
      refreshBeforeExpiryMs: 600_000,
      clock,
    });
    const [a, b] = await Promise.all([bed.tokens.botToken(T1), other.botToken(T1)]);
    expect(bed.fake.oauth?.refreshCount).toBe(1);
    expect(a).toBe(b);
    expect(a).not.toBe(original);
    expect(a).toBe(bed.fake.oauth?.botTokenOf('T:T1'));
    expect((await bed.store.fetch(T1))?.bot?.token).toBe(a);
    // Cached now: no second refresh.
    await bed.tokens.botToken(T1);
    await other.botToken(T1);
    expect(bed.fake.oauth?.refreshCount).toBe(1);
  });

  it('keeps using a still-valid token when its refresh fails, with a notice', async () => {
    bed = await startInstallBed({ oauth: { tokenRotation: { expiresInS: 3600 } } });
    await installT1(bed);
    const original = (await bed.store.fetch(T1))?.bot?.token;
    bed.fake.fail('oauth.v2.access', { error: 'invalid_refresh_token' });
    expect(await bed.tokens.botToken(T1)).toBe(original);
    const notice = await bed.observed(
      (o) => o.type === 'adapter_notice' && o.name === 'token_refresh_failed',
    );
    expect(notice).toMatchObject({
      detail: { stillValid: true, slackError: 'invalid_refresh_token' },
    });
  });

  it('refuses an expired token whose refresh fails: typed error, deliveries refused as unavailable', async () => {
    let now = Date.now();
    bed = await startInstallBed({
      oauth: { tokenRotation: { expiresInS: 3600 }, clock: () => now },
      tokens: { clock: () => now, cacheTtlMs: 1 },
    });
    await installT1(bed);
    now += 3_601_000;
    bed.fake.fail('oauth.v2.access', { error: 'invalid_refresh_token', times: 2 });
    await expect(bed.tokens.botToken(T1)).rejects.toBeInstanceOf(InstallationRefreshError);
    bed.runtime.onMention(() => undefined);
    const refused = await bed.send(buildAppMentionEvent({ teamId: 'T1' }));
    expect(refused.status).toBe(503);
    await bed.observed((o) => o.type === 'adapter_notice' && o.name === 'installation_unavailable');
    // Once Slack answers again, the redelivery refreshes and is handled.
    const fresh = await bed.send(buildAppMentionEvent({ teamId: 'T1' }));
    expect(fresh.status).toBe(200);
    expect(bed.fake.oauth?.refreshCount).toBe(1);
  });
});
