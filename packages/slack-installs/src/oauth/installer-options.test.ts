import { createMemoryState } from '@rt/state-memory';
import { describe, expect, it } from 'vitest';
import { createMemoryInstallationStore } from '../store/memory-store.js';
import type { SlackInstallerOptions } from './installer-options.js';
import { createSlackInstaller } from './slack-installer.js';

const BASE: SlackInstallerOptions = {
  clientId: '1.2',
  clientSecret: 'client-secret-value',
  stateSecret: 'x'.repeat(32),
  state: createMemoryState(),
  store: createMemoryInstallationStore(),
  scopes: ['chat:write'],
  redirectUri: 'https://example.com/slack/oauth_redirect',
};

describe('createSlackInstaller options', () => {
  it('takes the redirect path from redirectUri and defaults the install path', () => {
    const installer = createSlackInstaller(BASE);
    expect(installer.redirectPath).toBe('/slack/oauth_redirect');
    expect(installer.installPath).toBe('/slack/install');
  });

  it.each([
    [{ stateSecret: 'short' }, /stateSecret/],
    [{ scopes: [] }, /scopes or userScopes/],
    [{ scopes: ['bad scope'] }, /scopes/],
    [{ redirectUri: '/relative' }, /redirectUri/],
    [{ installPath: 'no-slash' }, /installPath/],
    [{ clientSecret: '' }, /clientSecret/],
    [{ state: {} }, /state/],
    [{ stateTtlMs: 0 }, /stateTtlMs/],
  ] as const)('refuses %j', (patch, message) => {
    expect(() => createSlackInstaller({ ...BASE, ...(patch as object) })).toThrow(message);
  });

  it('never echoes a secret in a validation error', () => {
    try {
      createSlackInstaller({ ...BASE, stateSecret: 'too-short-secret-value' });
    } catch (error) {
      expect((error as Error).message).not.toContain('too-short-secret-value');
    }
  });
});
