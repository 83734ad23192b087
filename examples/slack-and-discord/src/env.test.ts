import { describe, expect, it } from 'vitest';
import { readEnv } from './env.js';

const FULL = {
  SLACK_SIGNING_SECRET: 's',
  SLACK_BOT_TOKEN: 'xoxb-1',
  DISCORD_PUBLIC_KEY: 'k',
  DISCORD_APPLICATION_ID: '1',
  DISCORD_BOT_TOKEN: 't',
};

describe('readEnv', () => {
  it('reads both platforms’ settings, the gateway on and port 3000 by default', () => {
    expect(readEnv(FULL)).toEqual({
      slack: { signingSecret: 's', botToken: 'xoxb-1' },
      discord: { publicKey: 'k', applicationId: '1', token: 't', gateway: true },
      port: 3000,
      host: undefined,
    });
  });

  it('SLACK_API_URL and DISCORD_API_URL point the adapters elsewhere (local fakes)', () => {
    const env = readEnv({
      ...FULL,
      SLACK_API_URL: 'http://127.0.0.1:1/api/',
      DISCORD_API_URL: 'http://127.0.0.1:2/api',
    });
    expect(env.slack.apiUrl).toBe('http://127.0.0.1:1/api/');
    expect(env.discord.apiUrl).toBe('http://127.0.0.1:2/api');
  });

  it.each(['SLACK_API_URL', 'DISCORD_API_URL'])(
    'refuses a %s that is not an absolute URL',
    (name) => {
      expect(() => readEnv({ ...FULL, [name]: 'not a url' })).toThrow(
        `${name} must be an absolute URL`,
      );
    },
  );

  it('DISCORD_GATEWAY=off serves Discord over HTTP only', () => {
    expect(readEnv({ ...FULL, DISCORD_GATEWAY: 'off' }).discord.gateway).toBe(false);
  });

  it.each(Object.keys(FULL))('names %s when it is missing', (name) => {
    expect(() => readEnv({ ...FULL, [name]: '' })).toThrow(name);
  });

  it('refuses a bad port or gateway switch, naming it', () => {
    expect(() => readEnv({ ...FULL, PORT: 'x' })).toThrow(/PORT/);
    expect(() => readEnv({ ...FULL, DISCORD_GATEWAY: 'maybe' })).toThrow(/DISCORD_GATEWAY/);
  });
});
