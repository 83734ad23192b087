/**
 * Configuration from the environment. A `.env` file in the working directory is loaded first when
 * present (`process.loadEnvFile`, Node 20.12+); variables already set in the environment win.
 */
import { existsSync } from 'node:fs';

/** Where answers come from: OpenAI when `OPENAI_API_KEY` is set, else the offline mock model. */
export type ModelEnv =
  | {
      readonly provider: 'openai';
      readonly apiKey: string;
      readonly modelId: string;
      readonly baseURL?: string;
    }
  | { readonly provider: 'mock'; readonly chunkDelayMs: number };

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
    /** `DISCORD_API_URL`: another REST API (a local fake). */
    readonly apiUrl?: string;
  };
  readonly model: ModelEnv;
  /** `SHUTDOWN_GRACE_MS` (default 10000): what running streams get at a shutdown. */
  readonly shutdownGraceMs: number;
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

/** An optional URL: unset or blank is `undefined`; anything else must be absolute. */
function url(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim() || undefined;
  if (value !== undefined && !URL.canParse(value)) {
    throw new Error(`${name} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** An optional integer in `[min, max]`, `fallback` when unset or blank. */
function integer(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name]?.trim() || String(fallback);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function modelEnv(env: NodeJS.ProcessEnv): ModelEnv {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (apiKey === undefined || apiKey.length === 0) {
    return { provider: 'mock', chunkDelayMs: integer(env, 'MOCK_CHUNK_DELAY_MS', 20, 0, 60_000) };
  }
  const baseURL = url(env, 'OPENAI_BASE_URL');
  return {
    provider: 'openai',
    apiKey,
    modelId: env.OPENAI_MODEL?.trim() || 'gpt-4o-mini',
    ...(baseURL !== undefined ? { baseURL } : {}),
  };
}

/** Reads and validates the bot's settings; throws naming the first missing or bad variable. */
export function readEnv(env: NodeJS.ProcessEnv = process.env): BotEnv {
  const port = integer(env, 'PORT', 3000, 0, 65_535);
  const gateway = (env.DISCORD_GATEWAY?.trim() || 'on').toLowerCase();
  if (gateway !== 'on' && gateway !== 'off') {
    throw new Error(`DISCORD_GATEWAY must be "on" or "off", got ${JSON.stringify(gateway)}`);
  }
  const slackApiUrl = url(env, 'SLACK_API_URL');
  const discordApiUrl = url(env, 'DISCORD_API_URL');
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
    model: modelEnv(env),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    port,
    host: env.HOST?.trim() || undefined,
  };
}
