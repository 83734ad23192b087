/**
 * Entry point: serves the bot over node:http (the adapter's native listener) and shuts down
 * gracefully on the first SIGINT/SIGTERM, ignoring repeats while it runs (runtime first, so
 * admission closes and running handlers drain while the server still answers late deliveries with
 * a retry-inducing 503; then the server; then the State).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Observation } from '@rt/core';
import { shutdownOnSignals } from '@rt/example-shared/signals';
import { createBot } from './bot.js';
import { type BotEnv, loadDotEnv, readEnv } from './env.js';

function log(observation: Observation): void {
  switch (observation.type) {
    case 'dispatch_finished':
      console.log(
        `${observation.event.shape} ${observation.event.id}: ${observation.outcome} in ${observation.durationMs} ms`,
        ...(observation.error !== undefined ? [observation.error] : []),
      );
      break;
    case 'admission_rejected':
      console.warn(`rejected ${observation.event.id} (${observation.reason})`);
      break;
    case 'prelude_error':
    case 'state_error':
    case 'lease_lost':
      console.error(observation.type, observation.error);
      break;
    case 'adapter_notice':
      // The detail says why (a rejected signature's `reason`, the shape and event id, ...).
      console.warn(
        `${observation.adapter}: ${observation.name}`,
        ...(observation.detail !== undefined ? [JSON.stringify(observation.detail)] : []),
        ...(observation.error !== undefined ? [observation.error] : []),
      );
      break;
    default:
      break;
  }
}

let env: BotEnv;
try {
  loadDotEnv();
  env = readEnv();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const bot = createBot({
  signingSecret: env.signingSecret,
  botToken: env.botToken,
  ...(env.apiUrl !== undefined ? { apiUrl: env.apiUrl } : {}),
  observers: [log],
});
// The adapter's native node:http listener (no web Request/Response on the hot path).
const server = createServer(bot.slack.nodeListener);
server.listen(env.port, env.host, () => {
  const { port } = server.address() as AddressInfo;
  console.log(`rt Slack bot listening on http://${env.host ?? 'localhost'}:${port}/slack/events`);
});

// The first SIGINT/SIGTERM shuts down; repeats while it runs are logged and ignored.
shutdownOnSignals(async () => {
  await bot.runtime.shutdown({ graceMs: 10_000 });
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await bot.close();
  console.log('stopped', bot.runtime.stats().outcomes);
});
