import { describe, expect, it } from 'vitest';
import { readEnv } from './env.js';

const BASE = {
  SLACK_SIGNING_SECRET: 'secret',
  SLACK_BOT_TOKEN: 'xoxb-1',
  DISCORD_PUBLIC_KEY: 'key',
  DISCORD_APPLICATION_ID: '1',
  DISCORD_BOT_TOKEN: 'token',
};

describe('readEnv', () => {
  it('uses the mock model without OPENAI_API_KEY', () => {
    const env = readEnv({ ...BASE });
    expect(env.model).toEqual({ provider: 'mock', chunkDelayMs: 20 });
    expect(env.shutdownGraceMs).toBe(10_000);
    expect(env.port).toBe(3000);
    expect(readEnv({ ...BASE, MOCK_CHUNK_DELAY_MS: '300' }).model).toEqual({
      provider: 'mock',
      chunkDelayMs: 300,
    });
  });

  it('uses OpenAI when OPENAI_API_KEY is set', () => {
    expect(readEnv({ ...BASE, OPENAI_API_KEY: ' sk-1 ' }).model).toEqual({
      provider: 'openai',
      apiKey: 'sk-1',
      modelId: 'gpt-4o-mini',
    });
    expect(
      readEnv({
        ...BASE,
        OPENAI_API_KEY: 'sk-1',
        OPENAI_MODEL: 'gpt-4.1',
        OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
      }).model,
    ).toEqual({
      provider: 'openai',
      apiKey: 'sk-1',
      modelId: 'gpt-4.1',
      baseURL: 'http://127.0.0.1:1/v1',
    });
  });

  it('names the missing or bad variable', () => {
    expect(() => readEnv({ ...BASE, SLACK_BOT_TOKEN: ' ' })).toThrow(/SLACK_BOT_TOKEN/);
    expect(() => readEnv({ ...BASE, SHUTDOWN_GRACE_MS: '-1' })).toThrow(/SHUTDOWN_GRACE_MS/);
    expect(() => readEnv({ ...BASE, MOCK_CHUNK_DELAY_MS: 'x' })).toThrow(/MOCK_CHUNK_DELAY_MS/);
    expect(() => readEnv({ ...BASE, PORT: '70000' })).toThrow(/PORT/);
    expect(() => readEnv({ ...BASE, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'nope' })).toThrow(
      /OPENAI_BASE_URL/,
    );
    expect(() => readEnv({ ...BASE, DISCORD_GATEWAY: 'maybe' })).toThrow(/DISCORD_GATEWAY/);
  });
});
