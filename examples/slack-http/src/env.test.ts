import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadDotEnv, readEnv } from './env.js';

describe('readEnv', () => {
  const base = { SLACK_SIGNING_SECRET: 'secret', SLACK_BOT_TOKEN: 'xoxb-1' };

  it('reads the secret, the token and the port', () => {
    expect(readEnv({ ...base, PORT: '8080' })).toEqual({
      signingSecret: 'secret',
      botToken: 'xoxb-1',
      port: 8080,
      host: undefined,
      apiUrl: undefined,
    });
  });

  it('takes the Web API base URL from SLACK_API_URL, so the bot can talk to a local fake', () => {
    expect(readEnv({ ...base, SLACK_API_URL: 'http://127.0.0.1:4000/api/' }).apiUrl).toBe(
      'http://127.0.0.1:4000/api/',
    );
    expect(() => readEnv({ ...base, SLACK_API_URL: 'not a url' })).toThrow(/SLACK_API_URL/);
  });

  it('defaults the port to 3000', () => {
    expect(readEnv(base).port).toBe(3000);
  });

  it('binds the interface named by HOST', () => {
    expect(readEnv({ ...base, HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
  });

  it('names the missing variable', () => {
    expect(() => readEnv({ SLACK_BOT_TOKEN: 'xoxb-1' })).toThrow(/SLACK_SIGNING_SECRET/);
    expect(() => readEnv({ SLACK_SIGNING_SECRET: 's', SLACK_BOT_TOKEN: '  ' })).toThrow(
      /SLACK_BOT_TOKEN/,
    );
  });

  it('refuses a port that is not an integer in range', () => {
    expect(() => readEnv({ ...base, PORT: 'http' })).toThrow(/PORT/);
    expect(() => readEnv({ ...base, PORT: '70000' })).toThrow(/PORT/);
  });
});

describe('loadDotEnv', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rt-example-env-'));
  const keys = ['RT_EXAMPLE_FROM_FILE', 'RT_EXAMPLE_PRESET'];
  afterEach(() => {
    for (const key of keys) delete process.env[key];
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads a .env file without overriding variables already set', () => {
    const file = join(dir, '.env');
    writeFileSync(file, 'RT_EXAMPLE_FROM_FILE=from-file\nRT_EXAMPLE_PRESET=from-file\n');
    process.env.RT_EXAMPLE_PRESET = 'preset';
    expect(loadDotEnv(file)).toBe(true);
    expect(process.env.RT_EXAMPLE_FROM_FILE).toBe('from-file');
    expect(process.env.RT_EXAMPLE_PRESET).toBe('preset');
  });

  it('does nothing when the file is absent', () => {
    expect(loadDotEnv(join(dir, 'missing.env'))).toBe(false);
    expect(process.env.RT_EXAMPLE_FROM_FILE).toBeUndefined();
  });
});
