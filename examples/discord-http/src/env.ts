/**
 * Configuration from the environment. A `.env` file in the working directory is loaded first when
 * present (`process.loadEnvFile`, Node 20.12+); variables already set in the environment win.
 */
import { existsSync } from 'node:fs';

export interface BotEnv {
  readonly publicKey: string;
  readonly applicationId: string;
  readonly token: string;
  readonly port: number;
  /** Interface to bind; `undefined` binds every interface (what a tunnel or proxy needs). */
  readonly host: string | undefined;
  /** REST base URL (`DISCORD_API_URL`); `undefined` uses Discord's. Point it at a local fake. */
  readonly apiUrl: string | undefined;
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

/** Reads and validates the bot's settings; throws naming the first missing or bad variable. */
export function readEnv(env: NodeJS.ProcessEnv = process.env): BotEnv {
  const rawPort = env.PORT?.trim() || '3000';
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(rawPort)}`);
  }
  const apiUrl = env.DISCORD_API_URL?.trim() || undefined;
  if (apiUrl !== undefined && !URL.canParse(apiUrl)) {
    throw new Error(`DISCORD_API_URL must be an absolute URL, got ${JSON.stringify(apiUrl)}`);
  }
  return {
    publicKey: required(env, 'DISCORD_PUBLIC_KEY'),
    applicationId: required(env, 'DISCORD_APPLICATION_ID'),
    token: required(env, 'DISCORD_BOT_TOKEN'),
    port,
    host: env.HOST?.trim() || undefined,
    apiUrl,
  };
}
