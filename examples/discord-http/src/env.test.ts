import { describe, expect, it } from 'vitest';
import { readEnv } from './env.js';

const base = {
  DISCORD_PUBLIC_KEY: 'a'.repeat(64),
  DISCORD_APPLICATION_ID: '1',
  DISCORD_BOT_TOKEN: 't',
};

describe('readEnv', () => {
  it('reads the credentials, port 3000 and every interface by default', () => {
    expect(readEnv(base)).toEqual({
      publicKey: 'a'.repeat(64),
      applicationId: '1',
      token: 't',
      port: 3000,
      host: undefined,
      apiUrl: undefined,
    });
  });

  it.each(['DISCORD_PUBLIC_KEY', 'DISCORD_APPLICATION_ID', 'DISCORD_BOT_TOKEN'])(
    'names %s when it is missing',
    (name) => {
      expect(() => readEnv({ ...base, [name]: ' ' })).toThrow(`${name} is not set`);
    },
  );

  it('reads DISCORD_API_URL the way the Slack examples read SLACK_API_URL', () => {
    expect(readEnv({ ...base, DISCORD_API_URL: ' http://127.0.0.1:9/api ' }).apiUrl).toBe(
      'http://127.0.0.1:9/api',
    );
    expect(readEnv({ ...base, DISCORD_API_URL: ' ' }).apiUrl).toBeUndefined();
    expect(() => readEnv({ ...base, DISCORD_API_URL: 'not a url' })).toThrow(
      /DISCORD_API_URL must be an absolute URL/,
    );
  });

  it('refuses a bad port', () => {
    expect(() => readEnv({ ...base, PORT: '70000' })).toThrow(/PORT must be an integer/);
  });
});
