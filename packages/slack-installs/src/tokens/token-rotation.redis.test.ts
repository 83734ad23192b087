import { randomBytes } from 'node:crypto';
import { createRedisState } from '@rt/state-redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PrivateRedisServer,
  startRedisServer,
} from '../../../state-redis/src/test-support/redis-server.js';
import { createRedisInstallationStore } from '../store/redis-store.js';
import { CookieClient, hrefOf } from '../test-support/cookie-client.js';
import { CLIENT_ID, CLIENT_SECRET, startInstallBed } from '../test-support/install-bed.js';
import { createInstallationTokens } from './installation-tokens.js';

const KEYS = [{ id: 'k1', key: randomBytes(32) }];
const T1 = { teamId: 'T1', enterpriseId: undefined, isEnterpriseInstall: false };

/** One "instance": its own Redis connections, State and store over the shared server. */
function instance(url: string) {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  return {
    client,
    state: createRedisState({ url }),
    store: createRedisInstallationStore({ client, encryptionKeys: KEYS }),
  };
}

describe('token rotation across two instances on one Redis', () => {
  let server: PrivateRedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('refreshes once under the Redis lock; both instances use the new token', async () => {
    let now = Date.now();
    const clock = () => now;
    const a = instance(server.url);
    const b = instance(server.url);
    const bed = await startInstallBed({
      state: a.state,
      store: a.store,
      oauth: { tokenRotation: { expiresInS: 3600 }, clock },
      tokens: { refreshBeforeExpiryMs: 600_000, refreshPollMs: 5, clock },
    });
    try {
      const browser = new CookieClient();
      const page = await browser.get(`${bed.origin}/slack/install`);
      const consent = await browser.get(hrefOf(page.body, 'add-to-slack'));
      expect((await browser.get(hrefOf(consent.body, 'allow-T1'))).status).toBe(200);
      const original = (await b.store.fetch(T1))?.bot?.token;
      now += 3_100_000;
      const other = createInstallationTokens({
        store: b.store,
        state: b.state,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        apiUrl: bed.fake.url,
        refreshBeforeExpiryMs: 600_000,
        refreshPollMs: 5,
        clock,
      });
      const tokens = await Promise.all([
        bed.tokens.botToken(T1),
        other.botToken(T1),
        bed.tokens.botToken(T1),
        other.botToken(T1),
      ]);
      expect(bed.fake.oauth?.refreshCount).toBe(1);
      expect(new Set(tokens).size).toBe(1);
      expect(tokens[0]).not.toBe(original);
      expect((await b.store.fetch(T1))?.bot?.token).toBe(tokens[0]);
    } finally {
      await bed.close();
      await b.state.close();
      a.client.disconnect();
      b.client.disconnect();
    }
  });
});
