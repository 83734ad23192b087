/**
 * Configuration from the environment. A `.env` file in the working directory is loaded first when
 * present (`process.loadEnvFile`, Node 20.12+); variables already set in the environment win.
 */
import { existsSync } from 'node:fs';

export interface BotEnv {
  readonly slack: {
    readonly signingSecret: string;
    readonly botToken: string;
    /** `SLACK_API_URL`: another Web API (a local fake); default Slack's. */
    readonly apiUrl?: string;
  };
  readonly discord: {
    readonly publicKey: string;
    readonly applicationId: string;
    readonly token: string;
    /** `DISCORD_GATEWAY=off` serves Discord over HTTP interactions only. */
    readonly gateway: boolean;
    /** `DISCORD_API_URL`: another REST API (a local fake, whose `/gateway/bot` names its gateway). */
    readonly apiUrl?: string;
  };
  readonly port: number;
  /** Interface to bind; `undefined` binds every interface (what a tunnel or proxy needs). */
  readonly host: string | undefined;
}

/** Loads `path` into `process.env` if it exists. Returns whether it did. */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (value === undefined || value.length === 0) {
    throw new Error(`${name} is not set (see .env.example)`);
  }
  return value;
}

/** An optional API base URL: unset or blank is `undefined`; anything else must be absolute. */
function apiUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim() || undefined;
  if (value !== undefined && !URL.canParse(value)) {
    throw new Error(`${name} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Reads and validates the bot's settings; throws naming the first missing or bad variable. */
export function readEnv(env: NodeJS.ProcessEnv = process.env): BotEnv {
  const rawPort = env.PORT?.trim() || '3000';
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(rawPort)}`);
  }
  const gateway = (env.DISCORD_GATEWAY?.trim() || 'on').toLowerCase();
  if (gateway !== 'on' && gateway !== 'off') {
    throw new Error(`DISCORD_GATEWAY must be "on" or "off", got ${JSON.stringify(gateway)}`);
  }
  const slackApiUrl = apiUrl(env, 'SLACK_API_URL');
  const discordApiUrl = apiUrl(env, 'DISCORD_API_URL');
  return {
    slack: {
      signingSecret: required(env, 'SLACK_SIGNING_SECRET'),
      botToken: required(env, 'SLACK_BOT_TOKEN'),
      ...(slackApiUrl !== undefined ? { apiUrl: slackApiUrl } : {}),
    },
    discord: {
      publicKey: required(env, 'DISCORD_PUBLIC_KEY'),
      applicationId: required(env, 'DISCORD_APPLICATION_ID'),
      token: required(env, 'DISCORD_BOT_TOKEN'),
      gateway: gateway === 'on',
      ...(discordApiUrl !== undefined ? { apiUrl: discordApiUrl } : {}),
    },
    port,
    host: env.HOST?.trim() || undefined,
  };
}
