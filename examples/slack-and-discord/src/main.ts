/**
 * Entry point: serves both platforms' HTTP endpoints on one node:http server, connects the Discord
 * gateway, and shuts down gracefully on the first SIGINT/SIGTERM (repeats while it runs are logged
 * and ignored): the runtime first (admission closes on both
 * platforms, running handlers drain while late Slack events get a retry-inducing 503, late Discord
 * interactions and gateway messages the unavailable text, and the gateway closes last), then the
 * server, then the State.
 */
import type { AddressInfo } from 'node:net';
import type { Observation } from '@rt/core';
import { shutdownOnSignals } from '@rt/example-shared/signals';
import { createBot } from './bot.js';
import { type BotEnv, loadDotEnv, readEnv } from './env.js';
import { createBotServer, DISCORD_PATH, SLACK_PATH } from './server.js';

function log(observation: Observation): void {
  switch (observation.type) {
    case 'dispatch_finished':
      console.log(
        `${observation.event.adapter} ${observation.event.shape} ${observation.event.id}: ${observation.outcome} in ${observation.durationMs} ms`,
        ...(observation.error !== undefined ? [observation.error] : []),
      );
      break;
    case 'admission_rejected':
      console.warn(
        `${observation.event.adapter}: rejected ${observation.event.id} (${observation.reason})`,
      );
      break;
    case 'adapter_notice':
      // gateway_disconnected is the one to alert on.
      console.warn(
        `${observation.adapter}: ${observation.name}`,
        observation.detail ?? '',
        observation.error ?? '',
      );
      break;
    case 'prelude_error':
    case 'state_error':
    case 'lease_lost':
      console.error(observation.type, observation.error);
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
const bot = createBot({ slack: env.slack, discord: env.discord, observers: [log] });
const server = createBotServer(bot, (error) => console.error('request failed', error));
server.listen(env.port, env.host, () => {
  const { port } = server.address() as AddressInfo;
  const origin = `http://${env.host ?? 'localhost'}:${port}`;
  console.log(`Slack Request URL: ${origin}${SLACK_PATH}`);
  console.log(`Discord Interactions Endpoint URL (optional): ${origin}${DISCORD_PATH}`);
});
try {
  await bot.start();
  console.log(env.discord.gateway ? 'Discord gateway connected' : 'Discord gateway off');
} catch (error) {
  console.error('could not start', error);
  process.exitCode = 1;
  await bot.close();
  server.close();
}

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
