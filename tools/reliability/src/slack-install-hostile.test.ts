import { randomBytes } from 'node:crypto';
import {
  createRedisInstallationStore,
  type InstallAnswer,
  type InstallationStore,
  type InstallRequest,
} from '@rt/slack-installs';
import { buildAppMentionEvent, buildEventCallback } from '@rt/testing/slack';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CookieClient,
  hrefOf,
} from '../../../packages/slack-installs/src/test-support/cookie-client.js';
import {
  CLIENT_SECRET,
  type InstallBed,
  SIGNING_SECRET,
  STATE_SECRET,
  startInstallBed,
} from '../../../packages/slack-installs/src/test-support/install-bed.js';
import {
  type PrivateRedisServer,
  startRedisServer,
} from '../../../packages/state-redis/src/test-support/redis-server.js';
import { EmissionLog } from './support/emission-log.js';
import { recordFigures, sized } from './support/figures.js';

const RUNS = sized(300, 5000);
const ENCRYPTION_KEY = randomBytes(32);
const tried: Record<string, number> = {};

/** A store that counts the writes reaching it. */
function counting(inner: InstallationStore): InstallationStore & { writes: number } {
  const store = {
    writes: 0,
    store: async (...args: Parameters<InstallationStore['store']>) => {
      store.writes += 1;
      return inner.store(...args);
    },
    fetch: (...args: Parameters<InstallationStore['fetch']>) => inner.fetch(...args),
    delete: async (...args: Parameters<InstallationStore['delete']>) => {
      store.writes += 1;
      return inner.delete(...args);
    },
  };
  return store;
}

async function installThrough(bed: InstallBed, client: CookieClient, teamId: string) {
  const page = await client.get(`${bed.origin}/slack/install`);
  const consent = await client.get(hrefOf(page.body, 'add-to-slack'));
  return client.get(hrefOf(consent.body, `allow-${teamId}`));
}

function record(log: EmissionLog, answer: InstallAnswer): void {
  log.add(`${answer.status} ${JSON.stringify(answer.headers)} ${answer.body}`);
}

describe('the Slack install paths under hostile input, and no secret anywhere', () => {
  let redis: PrivateRedisServer;
  let client: Redis;
  let bed: InstallBed;
  let store: InstallationStore & { writes: number };
  const emitted = new EmissionLog();
  /** A genuine state (and its cookie) to mutate from. */
  let genuineState = '';

  beforeAll(async () => {
    redis = await startRedisServer();
    client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    await new Promise((resolve) => client.once('ready', resolve));
    store = counting(
      createRedisInstallationStore({ client, encryptionKeys: [{ id: 'k1', key: ENCRYPTION_KEY }] }),
    );
    bed = await startInstallBed({
      store,
      observers: [emitted.observer],
      oauth: { tokenRotation: { expiresInS: 3600 } },
      // Tokens live an hour and are due for refresh at once: every load refreshes.
      tokens: { refreshBeforeExpiryMs: 3_600_000 },
    });
    const answer = await bed.installer.handleInstall({
      method: 'GET',
      url: '/slack/install',
      headers: {},
    });
    const cookie = [answer.headers['set-cookie'] ?? []].flat()[0] ?? '';
    genuineState = cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'));
  });

  afterAll(async () => {
    await bed.close();
    client.disconnect();
    await redis.dispose();
    recordFigures('slack-install-hostile', { runsPerProperty: RUNS, tried });
  });

  const headerValue = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.constant(''),
    fc.constant('rt-slack-oauth-state=x'),
  );

  it('answers any request to the install path without a crash or a store write', async () => {
    const before = store.writes;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'X'),
        fc.string({ maxLength: 200 }),
        fc.option(headerValue, { nil: undefined }),
        fc.option(headerValue, { nil: undefined }),
        async (method, query, cookie, host) => {
          tried.install = (tried.install ?? 0) + 1;
          const request: InstallRequest = {
            method,
            url: `/slack/install?${query}`,
            headers: { cookie, host },
          };
          const answer = await bed.installer.handle(request);
          record(emitted, answer);
          expect([200, 405]).toContain(answer.status);
        },
      ),
      { numRuns: RUNS },
    );
    expect(store.writes).toBe(before);
  });

  it('refuses any forged, mutated or stray redirect with a 4xx/5xx page and stores nothing', async () => {
    const before = store.writes;
    const exchanges = bed.fake.callsTo('oauth.v2.access').length;
    const state = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.constant(genuineState),
      fc
        .tuple(
          fc.nat({ max: Math.max(0, genuineState.length - 1) }),
          fc.string({ minLength: 1, maxLength: 3 }),
        )
        .map(([at, text]) => genuineState.slice(0, at) + text + genuineState.slice(at + 1)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST'),
        fc.option(fc.string({ maxLength: 100 }), { nil: undefined }),
        fc.option(state, { nil: undefined }),
        fc.option(fc.constantFrom('access_denied', 'invalid_scope', ''), { nil: undefined }),
        fc.oneof(fc.constant('same'), fc.constant('none'), headerValue),
        fc.option(headerValue, { nil: undefined }),
        async (method, code, stateParam, error, cookieChoice, host) => {
          tried.redirect = (tried.redirect ?? 0) + 1;
          const query = new URLSearchParams();
          if (code !== undefined) query.set('code', code);
          if (stateParam !== undefined) query.set('state', stateParam);
          if (error !== undefined) query.set('error', error);
          // A genuine state with its own cookie is the one input that may pass: it is used once
          // below, never here, so its mark is never spent by the fuzz.
          const forgedState = stateParam === genuineState ? `${genuineState}x` : stateParam;
          if (forgedState !== undefined) query.set('state', forgedState);
          const cookie =
            cookieChoice === 'same'
              ? `rt-slack-oauth-state=${forgedState ?? ''}`
              : cookieChoice === 'none'
                ? undefined
                : cookieChoice;
          const answer = await bed.installer.handle({
            method,
            url: `/slack/oauth_redirect?${query}`,
            headers: { cookie, host },
          });
          record(emitted, answer);
          expect([400, 405]).toContain(answer.status);
        },
      ),
      { numRuns: RUNS },
    );
    expect(store.writes).toBe(before);
    expect(bed.fake.callsTo('oauth.v2.access')).toHaveLength(exchanges);
  });

  it('leaks no token, refresh token, client secret, state secret or key through any path', async () => {
    const refreshTokens: string[] = [];
    emitted.captureConsole();
    try {
      const browser = new CookieClient();
      // A real install, a failing exchange, a store outage, rotation, uninstall and an unknown team.
      expect((await installThrough(bed, browser, 'T1')).status).toBe(200);
      bed.fake.fail('oauth.v2.access', { error: 'invalid_code', times: 1 });
      expect((await installThrough(bed, browser, 'T2')).status).toBe(502);
      expect((await installThrough(bed, browser, 'T2')).status).toBe(200);
      bed.runtime.onMention(async (ctx) => {
        await ctx.reply('hello');
      });
      expect((await bed.send(buildAppMentionEvent({ teamId: 'T1' }))).status).toBe(200);
      bed.fake.fail('oauth.v2.access', { error: 'invalid_refresh_token', times: 1 });
      await bed.tokens.botToken({
        teamId: 'T2',
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      });
      await bed.send(buildEventCallback({ type: 'app_uninstalled' }, { teamId: 'T1' }));
      await bed.send(buildAppMentionEvent({ teamId: 'T1' }));
      const t2 = await bed.store.fetch({ teamId: 'T2', isEnterpriseInstall: false });
      refreshTokens.push(t2?.bot?.refreshToken ?? 'missing-refresh-token');
      await redis.stop();
      const outage = await installThrough(bed, new CookieClient(), 'T3');
      expect(outage.status).toBe(503);
      await bed.send(buildAppMentionEvent({ teamId: 'T2' }));
      for (const seen of browser.seen)
        emitted.add(`${seen.status} ${JSON.stringify(seen.headers)} ${seen.body}`);
    } finally {
      emitted.stopConsoleCapture();
    }
    const tokens = bed.fake.oauth?.issued.map((t) => t.token) ?? [];
    expect(tokens.length).toBeGreaterThan(2);
    const names = emitted.observations
      .filter((o) => o.type === 'adapter_notice')
      .map((o) => (o as { name: string }).name);
    for (const name of [
      'install_completed',
      'install_failed',
      'token_refreshed',
      'token_refresh_failed',
      'installation_revoked',
      'unknown_installation',
      'installation_unavailable',
    ]) {
      expect(names).toContain(name);
    }
    const secrets = [
      CLIENT_SECRET,
      STATE_SECRET,
      SIGNING_SECRET,
      ENCRYPTION_KEY.toString('base64'),
      ENCRYPTION_KEY.toString('hex'),
      ...tokens,
      ...refreshTokens,
    ];
    expect(refreshTokens[0]).toMatch(/^xoxe-1-/);
    expect(emitted.leaks(secrets)).toEqual([]);
  });
});
