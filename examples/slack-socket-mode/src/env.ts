/**
 * Configuration from the environment. A `.env` file in the working directory is loaded first when
 * present (`process.loadEnvFile`, Node 20.12+); variables already set in the environment win.
 */
import { existsSync } from 'node:fs';

export interface BotEnv {
  /** App-level token (`xapp-...`) that opens the Socket Mode connection. */
  readonly appToken: string;
  /** Bot token (`xoxb-...`) for outbound Web API calls. */
  readonly botToken: string;
  /** Web API base URL (`SLACK_API_URL`); `undefined` uses Slack's. */
  readonly apiUrl: string | undefined;
  /** Base URL of `apps.connections.open` (`SLACK_SOCKET_API_URL`); default `apiUrl`. */
  readonly socketApiUrl: string | undefined;
}

/** Loads `path` into `process.env` if it exists. Returns whether it did. */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

function required(env: NodeJS.ProcessEnv, name: string, prefix: string): string {
  const value = env[name]?.trim();
  if (value === undefined || value.length === 0) {
    throw new Error(`${name} is not set (see .env.example)`);
  }
  if (!value.startsWith(prefix)) throw new Error(`${name} must start with ${prefix}`);
  return value;
}

function url(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim() || undefined;
  if (value !== undefined && !URL.canParse(value)) {
    throw new Error(`${name} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Reads and validates the bot's settings; throws naming the first missing or bad variable. */
export function readEnv(env: NodeJS.ProcessEnv = process.env): BotEnv {
  return {
    appToken: required(env, 'SLACK_APP_TOKEN', 'xapp-'),
    botToken: required(env, 'SLACK_BOT_TOKEN', 'xoxb-'),
    apiUrl: url(env, 'SLACK_API_URL'),
    socketApiUrl: url(env, 'SLACK_SOCKET_API_URL'),
  };
}
