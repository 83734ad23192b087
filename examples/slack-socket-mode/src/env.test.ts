import { describe, expect, it } from 'vitest';
import { readEnv } from './env.js';

describe('readEnv', () => {
  const base = { SLACK_APP_TOKEN: 'xapp-1', SLACK_BOT_TOKEN: 'xoxb-1' };

  it('reads both tokens; the URLs default to Slack', () => {
    expect(readEnv(base)).toEqual({
      appToken: 'xapp-1',
      botToken: 'xoxb-1',
      apiUrl: undefined,
      socketApiUrl: undefined,
    });
  });

  it('takes the Web API and apps.connections.open URLs from the environment', () => {
    expect(
      readEnv({
        ...base,
        SLACK_API_URL: 'http://127.0.0.1:1/api/',
        SLACK_SOCKET_API_URL: 'http://127.0.0.1:2/api/',
      }),
    ).toMatchObject({ apiUrl: 'http://127.0.0.1:1/api/', socketApiUrl: 'http://127.0.0.1:2/api/' });
  });

  it('names the missing or malformed variable', () => {
    expect(() => readEnv({ SLACK_BOT_TOKEN: 'xoxb-1' })).toThrow(/SLACK_APP_TOKEN is not set/);
    expect(() => readEnv({ ...base, SLACK_APP_TOKEN: 'xoxb-wrong' })).toThrow(
      /SLACK_APP_TOKEN must start with xapp-/,
    );
    expect(() => readEnv({ ...base, SLACK_API_URL: 'nope' })).toThrow(/SLACK_API_URL/);
  });
});
