import { createDiscordSigner } from '@rt/testing/discord';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REST_OPTIONS,
  type DiscordAdapterOptions,
  resolveDiscordOptions,
} from './options.js';

const valid: DiscordAdapterOptions = {
  publicKey: createDiscordSigner().publicKey,
  applicationId: '100000000000000001',
  token: 'bot-token',
};

describe('Discord adapter options', () => {
  it('fills in the defaults', () => {
    const resolved = resolveDiscordOptions(valid);
    expect(resolved).toMatchObject({
      name: 'discord',
      apiUrl: 'https://discord.com/api',
      ackDeadlineMs: 2500,
      syncDeadlineMs: 2000,
      busySignalTimeoutMs: 2000,
      ephemeral: false,
      dispatchModes: { autocomplete: 'sync' },
      restOptions: { retries: 1, timeout: 5000 },
    });
    expect(resolved.publicKey?.asymmetricKeyType).toBe('ed25519');
  });

  it('takes no public key for a bot that never serves HTTP interactions (gateway only)', () => {
    const { publicKey: _omitted, ...withoutKey } = valid;
    expect(resolveDiscordOptions(withoutKey).publicKey).toBeUndefined();
  });

  it('bounds rate-limit waits by default: a wait over 5 s rejects instead of holding the call', () => {
    const reject = DEFAULT_REST_OPTIONS.rejectOnRateLimit as (data: {
      retryAfter: number;
    }) => boolean;
    expect(reject({ retryAfter: 5001 })).toBe(true);
    expect(reject({ retryAfter: 800 })).toBe(false);
  });

  it.each([
    [{ publicKey: 'nope' }, /publicKey/],
    [{ applicationId: '' }, /applicationId/],
    [{ applicationId: 'app' }, /applicationId/],
    [{ token: '' }, /botToken/],
    [{ botToken: '' }, /botToken/],
    [{ apiUrl: 'not a url' }, /apiUrl/],
    [{ ackDeadlineMs: 3001 }, /ackDeadlineMs must be at most 3000/],
    [{ ackDeadlineMs: 0 }, /ackDeadlineMs/],
    [{ syncDeadlineMs: 2500 }, /syncDeadlineMs must be below ackDeadlineMs/],
    [{ bodyLimitBytes: 1.5 }, /bodyLimitBytes/],
    [{ busyText: ' ' }, /busyText/],
    [{ ephemeral: 'yes' as unknown as boolean }, /ephemeral/],
    [{ dispatchModes: { slash: 'sync' } as never }, /unknown shape "slash"/],
    [{ dispatchModes: { autocomplete: 'later' } as never }, /dispatchModes.autocomplete/],
    [{ syncCommands: 'feedback' as never }, /syncCommands/],
    [{ syncCommands: [''] }, /syncCommands/],
  ])('refuses %o naming the option', (override, message) => {
    expect(() => resolveDiscordOptions({ ...valid, ...override })).toThrow(message);
  });
});
