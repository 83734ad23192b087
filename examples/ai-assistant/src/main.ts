/**
 * Entry point: serves Slack's Request URL and Discord's Interactions Endpoint URL on one node:http
 * server, connects the Discord gateway, and shuts down gracefully on the first SIGINT/SIGTERM
 * (repeats are logged and ignored): streams in flight get `SHUTDOWN_GRACE_MS`, then end with the
 * interrupted marker; then the server and the State close.
 */
import type { AddressInfo } from 'node:net';
import type { Observation } from '@rt/core';
import { shutdownOnSignals } from '@rt/example-shared/signals';
import type { LanguageModel } from 'ai';
import { createBot } from './bot.js';
import { type BotEnv, loadDotEnv, readEnv } from './env.js';
import { createMockModel, openAiModel } from './model.js';
import { createBotServer, DISCORD_PATH, SLACK_PATH } from './server.js';

function log(observation: Observation): void {
  switch (observation.type) {
    case 'dispatch_finished':
      console.log(
        `${observation.event.adapter} ${observation.event.shape} ${observation.event.id}: ${observation.outcome} in ${observation.durationMs} ms`,
      );
      break;
    case 'stream_finished':
      console.log(
        `stream ${observation.path}: ${observation.status}, ${observation.chars} chars in ${observation.writes} writes`,
      );
      break;
    case 'admission_rejected':
      console.warn(
        `${observation.event.adapter}: rejected ${observation.event.id} (${observation.reason})`,
      );
      break;
    case 'adapter_notice':
      console.warn(`${observation.adapter}: ${observation.name}`, observation.detail ?? '');
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

function modelOf(env: BotEnv): LanguageModel {
  if (env.model.provider === 'openai') {
    console.log(`model: OpenAI ${env.model.modelId}`);
    return openAiModel(env.model);
  }
  console.log('model: the AI SDK mock model (OPENAI_API_KEY is not set)');
  return createMockModel({ chunkDelayMs: env.model.chunkDelayMs }).model;
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
  slack: env.slack,
  discord: env.discord,
  model: modelOf(env),
  observers: [log],
});
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

shutdownOnSignals(async () => {
  await bot.runtime.shutdown({ graceMs: env.shutdownGraceMs });
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await bot.close();
  console.log('stopped', bot.runtime.stats().outcomes);
});
