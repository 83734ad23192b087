/**
 * Entry point: connects over Socket Mode and shuts down gracefully on the first SIGINT/SIGTERM,
 * ignoring repeats while it runs. Start it with `node` itself (what `pnpm start` execs) so the
 * signal reaches this process.
 */
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
      if (observation.name === 'socket_mode_log') break;
      console.warn(
        `${observation.adapter}: ${observation.name}`,
        ...(observation.detail !== undefined ? [JSON.stringify(observation.detail)] : []),
        ...(observation.error !== undefined ? [String(observation.error)] : []),
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
  appToken: env.appToken,
  botToken: env.botToken,
  ...(env.apiUrl !== undefined ? { apiUrl: env.apiUrl } : {}),
  ...(env.socketApiUrl !== undefined ? { socketApiUrl: env.socketApiUrl } : {}),
  observers: [log],
});

// The first SIGINT/SIGTERM shuts down; repeats while it runs are logged and ignored.
let stopping = false;
shutdownOnSignals(async () => {
  stopping = true;
  await bot.close();
  console.log('stopped', bot.runtime.stats().outcomes);
});

try {
  await bot.start();
  console.log('rt Slack bot connected over Socket Mode');
} catch (error) {
  if (!stopping) {
    console.error('could not connect:', error instanceof Error ? error.message : error);
    await bot.close();
    process.exitCode = 1;
  }
}
