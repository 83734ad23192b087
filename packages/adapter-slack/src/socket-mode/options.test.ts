import { describe, expect, it } from 'vitest';
import { resolveSlackOptions, type SlackAdapterOptions } from '../options.js';
import { DEFAULT_SOCKET_MODE_OPTIONS, type SlackSocketModeOptions } from './options.js';

function resolve(socketMode: Partial<SlackSocketModeOptions> | undefined) {
  return resolveSlackOptions({
    botToken: 'xoxb-x',
    apiUrl: 'http://127.0.0.1:9/api',
    socketMode,
  } as SlackAdapterOptions).socketMode;
}

describe('socketMode options', () => {
  it('is off unless given, and needs no signing secret when given', () => {
    expect(resolve(undefined)).toBeUndefined();
    expect(resolve({ appToken: 'xapp-1' })).toMatchObject({ appToken: 'xapp-1' });
  });

  it("fills in the defaults, with the adapter's apiUrl for apps.connections.open", () => {
    expect(resolve({ appToken: 'xapp-1' })).toEqual({
      appToken: 'xapp-1',
      apiUrl: 'http://127.0.0.1:9/api/',
      reconnectMinDelayMs: 1000,
      reconnectMaxDelayMs: 30_000,
      clientPingTimeoutMs: 5000,
      serverPingTimeoutMs: 30_000,
      logLevel: 'warn',
      clientOptions: DEFAULT_SOCKET_MODE_OPTIONS.clientOptions,
    });
  });

  it('refuses a token that is not an app-level token, naming the option', () => {
    expect(() => resolve({ appToken: 'xoxb-bot' })).toThrow(TypeError);
    expect(() => resolve({ appToken: 'xoxb-bot' })).toThrow(/socketMode\.appToken/);
    expect(() => resolve({})).toThrow(/socketMode\.appToken/);
  });

  it('refuses bad delays and levels with errors naming them', () => {
    expect(() => resolve({ appToken: 'xapp-1', reconnectMinDelayMs: 0 })).toThrow(
      /socketMode\.reconnectMinDelayMs/,
    );
    expect(() =>
      resolve({ appToken: 'xapp-1', reconnectMinDelayMs: 500, reconnectMaxDelayMs: 100 }),
    ).toThrow(RangeError);
    expect(() => resolve({ appToken: 'xapp-1', clientPingTimeoutMs: 1.5 })).toThrow(
      /socketMode\.clientPingTimeoutMs/,
    );
    expect(() =>
      resolve({ appToken: 'xapp-1', logLevel: 'loud' as SlackSocketModeOptions['logLevel'] }),
    ).toThrow(/socketMode\.logLevel/);
    expect(() => resolve({ appToken: 'xapp-1', apiUrl: 'nowhere' })).toThrow(/socketMode\.apiUrl/);
  });

  it('raises the default maximum delay to a larger minimum', () => {
    expect(resolve({ appToken: 'xapp-1', reconnectMinDelayMs: 60_000 })).toMatchObject({
      reconnectMinDelayMs: 60_000,
      reconnectMaxDelayMs: 60_000,
    });
  });
});
