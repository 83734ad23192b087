/**
 * `pnpm start`: the app against the real Slack. Environment: `SLACK_CLIENT_ID`,
 * `SLACK_CLIENT_SECRET`, `SLACK_SIGNING_SECRET`, `SLACK_STATE_SECRET` (32+ characters),
 * `PUBLIC_URL` (the https origin Slack redirects to), `PORT` (default 3000). With `REDIS_URL` the
 * State and the installation store are Redis, the store's records sealed with
 * `INSTALL_ENCRYPTION_KEYS` (`id:base64key`, comma-separated, newest first).
 */
import { createServer } from 'node:http';
import { createRedisInstallationStore, type EncryptionKey } from '@rt/slack-installs';
import { createRedisState } from '@rt/state-redis';
import { Redis } from 'ioredis';
import { createApp } from './app.js';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    console.error(`${name} is required (see README.md)`);
    process.exit(1);
  }
  return value;
}

function keysOf(text: string): EncryptionKey[] {
  return text.split(',').map((entry) => {
    const [id, key] = entry.split(':');
    return { id: id ?? '', key: key ?? '' };
  });
}

const redisUrl = process.env.REDIS_URL;
const redis =
  redisUrl === undefined
    ? undefined
    : new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
const app = createApp({
  clientId: required('SLACK_CLIENT_ID'),
  clientSecret: required('SLACK_CLIENT_SECRET'),
  signingSecret: required('SLACK_SIGNING_SECRET'),
  stateSecret: required('SLACK_STATE_SECRET'),
  publicUrl: required('PUBLIC_URL'),
  ...(redis === undefined
    ? {}
    : {
        state: createRedisState({ client: redis }),
        store: createRedisInstallationStore({
          client: redis,
          encryptionKeys: keysOf(required('INSTALL_ENCRYPTION_KEYS')),
        }),
      }),
  observers: [
    (o) => {
      if (o.type === 'adapter_notice') console.log(`${o.adapter}: ${o.name}`, o.detail ?? '');
    },
  ],
});
const server = createServer(app.listener);
server.listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`install at ${new URL('/slack/install', process.env.PUBLIC_URL).href}`);
});
process.once('SIGINT', async () => {
  await app.close();
  server.close();
  redis?.disconnect();
});
