/**
 * One bot instance in its own process, for the crash test: a Slack adapter over HTTP on
 * 127.0.0.1 port 0 and a runtime on the Redis at `RT_REDIS_URL`, under `queue`. It prints one line
 * per fact the parent needs: `ready <port>`, `start <eventId> <lockKey> <fence>` when a handler
 * begins (after its lease is taken) and `done <eventId>` when it returns. Run with
 * `node --conditions=@rt/source --import tsx`; the parent kills it with SIGKILL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSlackAdapter } from '@rt/adapter-slack';
import { createRuntime, toNodeListener } from '@rt/core';
import { createRedisState } from '@rt/state-redis';
import { BED_SECRET, BED_TOKEN } from './bed-secrets.js';
import { pause } from './deferred.js';

const url = process.env.RT_REDIS_URL;
if (url === undefined) throw new TypeError('RT_REDIS_URL is required');
const lockTtlMs = Number(process.env.RT_LOCK_TTL_MS ?? 1000);
const handlerMs = Number(process.env.RT_HANDLER_MS ?? 50);

const adapter = createSlackAdapter({
  signingSecret: BED_SECRET,
  botToken: BED_TOKEN,
  apiUrl: 'http://127.0.0.1:9/api/',
});
const runtime = createRuntime({
  state: createRedisState({ url, commandTimeoutMs: 1000 }),
  adapters: [adapter],
  concurrency: 'queue',
  lockTtlMs,
  maxDetached: 256,
});
runtime.onMention(async (ctx) => {
  process.stdout.write(`start ${ctx.event.id} ${ctx.lock?.key ?? '-'} ${ctx.lock?.fence ?? -1}\n`);
  await pause(handlerMs, ctx.signal);
  process.stdout.write(`done ${ctx.event.id}\n`);
});
const server = createServer(toNodeListener(adapter.handler));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
});
