import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PrivateRedisServer,
  startRedisServer,
} from '../../../state-redis/src/test-support/redis-server.js';
import { InstallationDecryptError, InstallationStoreError } from '../errors.js';
import type { SlackOAuthInstallation } from './installation-store.js';
import { createRedisInstallationStore } from './redis-store.js';

const KEY_A = { id: 'a', key: randomBytes(32) };
const KEY_B = { id: 'b', key: randomBytes(32) };

function installation(teamId: string, token: string, userToken?: string): SlackOAuthInstallation {
  return {
    team: { id: teamId, name: teamId },
    enterprise: undefined,
    user: { id: `U${teamId}`, token: userToken, scopes: userToken ? ['search:read'] : undefined },
    bot: { token, scopes: ['chat:write'], id: 'B1', userId: 'UB1' },
    isEnterpriseInstall: false,
    authVersion: 'v2',
  };
}

const T1 = { teamId: 'T1', isEnterpriseInstall: false } as const;

describe('RedisInstallationStore against a real redis-server', () => {
  let server: PrivateRedisServer;
  let client: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    client = new Redis(server.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    await new Promise((resolve) => client.once('ready', resolve));
  });
  afterAll(async () => {
    client.disconnect();
    await server.dispose();
  });

  it('stores, fetches and deletes, with every token encrypted at rest', async () => {
    const store = createRedisInstallationStore({
      client,
      encryptionKeys: [KEY_A],
      keyPrefix: 't1:',
    });
    await store.store(installation('T1', 'xoxb-redis-token-1234', 'xoxp-redis-user-5678'));
    expect((await store.fetch(T1))?.bot?.token).toBe('xoxb-redis-token-1234');
    expect((await store.fetch(T1))?.user.token).toBeUndefined();
    expect((await store.fetch({ ...T1, userId: 'UT1' }))?.user.token).toBe('xoxp-redis-user-5678');
    const raw = await client.hgetall('t1:{T:T1}');
    expect(Object.keys(raw).sort()).toEqual(['installation', 'user:UT1']);
    expect(JSON.stringify(raw)).not.toContain('xoxb-redis');
    expect(JSON.stringify(raw)).not.toContain('xoxp-redis');
    await store.delete({ ...T1, userId: 'UT1' });
    expect((await store.fetch({ ...T1, userId: 'UT1' }))?.user.token).toBeUndefined();
    await store.delete(T1);
    expect(await store.fetch(T1)).toBeUndefined();
    expect(await client.exists('t1:{T:T1}')).toBe(0);
  });

  it('reads records written with key A after rotation to B; rewrites seal with B', async () => {
    const before = createRedisInstallationStore({
      client,
      encryptionKeys: [KEY_A],
      keyPrefix: 't2:',
    });
    await before.store(installation('T1', 'xoxb-before-rotation-1'));
    const after = createRedisInstallationStore({
      client,
      encryptionKeys: [KEY_B, KEY_A],
      keyPrefix: 't2:',
    });
    expect((await after.fetch(T1))?.bot?.token).toBe('xoxb-before-rotation-1');
    await after.store(installation('T1', 'xoxb-after-rotation-2'));
    expect((await client.hget('t2:{T:T1}', 'installation'))?.startsWith('v1.b.')).toBe(true);
    const onlyB = createRedisInstallationStore({
      client,
      encryptionKeys: [KEY_B],
      keyPrefix: 't2:',
    });
    expect((await onlyB.fetch(T1))?.bot?.token).toBe('xoxb-after-rotation-2');
  });

  it('refuses a record tampered at rest with a typed error, never a garbled token', async () => {
    const store = createRedisInstallationStore({
      client,
      encryptionKeys: [KEY_A],
      keyPrefix: 't3:',
    });
    await store.store(installation('T1', 'xoxb-tamper-target-1'));
    const sealed = (await client.hget('t3:{T:T1}', 'installation')) as string;
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4] as string, 'base64url');
    body[body.length - 1] = (body[body.length - 1] as number) ^ 0x20;
    parts[4] = body.toString('base64url');
    await client.hset('t3:{T:T1}', 'installation', parts.join('.'));
    await expect(store.fetch(T1)).rejects.toBeInstanceOf(InstallationDecryptError);
    // A record copied from another installation's slot does not open either.
    await store.store(installation('T2', 'xoxb-other-slot-2'));
    await client.hset(
      't3:{T:T1}',
      'installation',
      (await client.hget('t3:{T:T2}', 'installation')) as string,
    );
    await expect(store.fetch(T1)).rejects.toBeInstanceOf(InstallationDecryptError);
  });

  it('fails with InstallationStoreError while Redis is down, then recovers', async () => {
    const own = await startRedisServer();
    const c = new Redis(own.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    await new Promise((resolve) => c.once('ready', resolve));
    const store = createRedisInstallationStore({
      client: c,
      encryptionKeys: [KEY_A],
      commandTimeoutMs: 500,
    });
    await own.stop();
    await expect(store.store(installation('T1', 'xoxb-outage-1'))).rejects.toBeInstanceOf(
      InstallationStoreError,
    );
    await expect(store.fetch(T1)).rejects.toBeInstanceOf(InstallationStoreError);
    c.disconnect();
    await own.dispose();
  });
});
