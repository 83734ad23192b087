import { SlackUnknownInstallationError } from '@rt/adapter-slack';
import { createMemoryState } from '@rt/state-memory';
import { describe, expect, it } from 'vitest';
import type { InstallationStore, SlackOAuthInstallation } from '../store/installation-store.js';
import { createMemoryInstallationStore } from '../store/memory-store.js';
import { createInstallationTokens } from './installation-tokens.js';

function installation(teamId: string, token: string): SlackOAuthInstallation {
  return {
    team: { id: teamId },
    enterprise: undefined,
    user: { id: 'U1', token: undefined, scopes: undefined },
    bot: { token, scopes: ['chat:write'], id: 'B1', userId: 'UB1' },
    isEnterpriseInstall: false,
  };
}

const team = (teamId: string) => ({ teamId, enterpriseId: undefined, isEnterpriseInstall: false });

function fetchCounting(inner: InstallationStore) {
  const counted = { fetches: 0 };
  const store: InstallationStore = {
    store: (i, s) => inner.store(i, s),
    fetch: (l, s) => {
      counted.fetches += 1;
      return inner.fetch(l, s);
    },
    delete: (l, s) => inner.delete(l, s),
  };
  return { store, counted };
}

function tokensOver(store: InstallationStore, extra: Record<string, unknown> = {}) {
  return createInstallationTokens({
    store,
    state: createMemoryState(),
    clientId: 'id',
    clientSecret: 'secret',
    ...extra,
  });
}

describe('InstallationTokens', () => {
  it('caches tokens with a bound: the least recently used is read from the store again', async () => {
    const inner = createMemoryInstallationStore();
    await inner.store(installation('T1', 'xoxb-1'));
    await inner.store(installation('T2', 'xoxb-2'));
    const { store, counted } = fetchCounting(inner);
    const tokens = tokensOver(store, { cacheSize: 1 });
    expect(await tokens.botToken(team('T1'))).toBe('xoxb-1');
    expect(await tokens.botToken(team('T1'))).toBe('xoxb-1');
    expect(counted.fetches).toBe(1);
    expect(await tokens.botToken(team('T2'))).toBe('xoxb-2');
    expect(tokens.cachedCount).toBe(1);
    await tokens.botToken(team('T1'));
    expect(counted.fetches).toBe(3);
  });

  it('reads the store again once cacheTtlMs has passed', async () => {
    let now = 1_000_000;
    const inner = createMemoryInstallationStore();
    await inner.store(installation('T1', 'xoxb-old'));
    const tokens = tokensOver(inner, { cacheTtlMs: 1000, clock: () => now });
    expect(await tokens.botToken(team('T1'))).toBe('xoxb-old');
    await inner.store(installation('T1', 'xoxb-new'));
    expect(await tokens.botToken(team('T1'))).toBe('xoxb-old');
    now += 1000;
    expect(await tokens.botToken(team('T1'))).toBe('xoxb-new');
  });

  it('forgets an installation at once at uninstall, within the cache TTL', async () => {
    const inner = createMemoryInstallationStore();
    await inner.store(installation('T1', 'xoxb-1'));
    const tokens = tokensOver(inner);
    await tokens.botToken(team('T1'));
    await tokens.revoke(team('T1'), { kind: 'app_uninstalled' });
    await expect(tokens.botToken(team('T1'))).rejects.toBeInstanceOf(SlackUnknownInstallationError);
    expect(inner.size).toBe(0);
  });

  it('rejects an unknown installation, or one the delivery does not name, as unknown', async () => {
    const tokens = tokensOver(createMemoryInstallationStore());
    await expect(tokens.botToken(team('T9'))).rejects.toBeInstanceOf(SlackUnknownInstallationError);
    await expect(tokens.botToken(team(undefined as unknown as string))).rejects.toBeInstanceOf(
      SlackUnknownInstallationError,
    );
  });

  it('rejects with the signal reason at abort', async () => {
    const inner = createMemoryInstallationStore();
    await inner.store(installation('T1', 'xoxb-1'));
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(tokensOver(inner).botToken(team('T1'), controller.signal)).rejects.toThrow('stop');
  });

  it('validates its options, naming the bad one', () => {
    const store = createMemoryInstallationStore();
    expect(() => tokensOver(store, { cacheSize: 0 })).toThrow(/cacheSize/);
    expect(() => tokensOver(store, { clientSecret: '' })).toThrow(/clientSecret/);
    expect(() => tokensOver(store, { apiUrl: 'nope' })).toThrow(/apiUrl/);
    expect(() => tokensOver(store, { state: {} })).toThrow(/state/);
  });
});
