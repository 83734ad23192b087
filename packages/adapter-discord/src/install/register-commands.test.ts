import { REST } from '@discordjs/rest';
import { type FakeDiscordRest, startFakeDiscordRest } from '@rt/testing/discord';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffCommands } from './command-diff.js';
import { discordInstallUrl, permissionBits } from './install-link.js';
import { registerCommands } from './register-commands.js';

const TOKEN = 'discord-register-token';
const APP = '123456789012345678';
const GUILD = '223456789012345678';

const ASK = {
  name: 'ask',
  type: 1,
  description: 'Ask a question',
  options: [
    { name: 'topic', description: 'What about', type: 3, required: true, autocomplete: true },
  ],
};
const FEEDBACK = { name: 'feedback', description: 'Tell us' };

describe('registerCommands', () => {
  let fake: FakeDiscordRest;
  let rest: REST;
  beforeEach(async () => {
    fake = await startFakeDiscordRest({ tokens: [TOKEN] });
    rest = new REST({ api: fake.url, retries: 0 }).setToken(TOKEN);
  });
  afterEach(async () => {
    await fake.close();
  });

  it('bulk-overwrites the global commands, then is idempotent (no second write)', async () => {
    const first = await registerCommands(rest, { applicationId: APP, commands: [ASK, FEEDBACK] });
    expect(first).toMatchObject({ written: true, added: ['1:ask', '1:feedback'], removed: [] });
    expect(fake.callsTo('PUT /applications/:application/commands')).toHaveLength(1);
    const again = await registerCommands(rest, { applicationId: APP, commands: [ASK, FEEDBACK] });
    expect(again).toMatchObject({ written: false, unchanged: ['1:ask', '1:feedback'] });
    expect(fake.callsTo('PUT /applications/:application/commands')).toHaveLength(1);
  });

  it('takes an undefined guildId, dryRun and signal as unset: global, written, no signal', async () => {
    const guildId: string | undefined = undefined;
    const result = await registerCommands(rest, {
      applicationId: APP,
      commands: [ASK],
      guildId,
      dryRun: undefined,
      signal: undefined,
    });
    expect(result).toMatchObject({ written: true, added: ['1:ask'] });
    expect(fake.callsTo('PUT /applications/:application/commands')).toHaveLength(1);
  });

  it('reports a dry-run diff (added, changed, removed) and writes nothing', async () => {
    await registerCommands(rest, { applicationId: APP, guildId: GUILD, commands: [ASK, FEEDBACK] });
    const changedAsk = { ...ASK, description: 'Ask anything' };
    const ping = { name: 'ping', description: 'Pong' };
    const dry = await registerCommands(rest, {
      applicationId: APP,
      guildId: GUILD,
      commands: [changedAsk, ping],
      dryRun: true,
    });
    expect(dry).toEqual({
      written: false,
      added: ['1:ping'],
      changed: ['1:ask'],
      removed: ['1:feedback'],
      unchanged: [],
    });
    expect(fake.callsTo('PUT /applications/:application/guilds/:guild/commands')).toHaveLength(1);
    const real = await registerCommands(rest, {
      applicationId: APP,
      guildId: GUILD,
      commands: [changedAsk, ping],
    });
    expect(real.written).toBe(true);
    const [, put] = fake.callsTo('PUT /applications/:application/guilds/:guild/commands');
    expect(put?.body).toEqual([changedAsk, ping]);
  });

  it('refuses bad definitions before any call', async () => {
    await expect(
      registerCommands(rest, { applicationId: APP, commands: [{ name: 'Has Space' }] }),
    ).rejects.toThrow(TypeError);
    await expect(
      registerCommands(rest, { applicationId: APP, commands: [FEEDBACK, FEEDBACK] }),
    ).rejects.toThrow(/repeats/);
    await expect(registerCommands(rest, { applicationId: 'x', commands: [] })).rejects.toThrow(
      /snowflake/,
    );
    expect(fake.calls).toHaveLength(0);
  });
});

describe('diffCommands', () => {
  it('ignores the fields Discord adds and its defaults', () => {
    const returned = [
      {
        ...FEEDBACK,
        id: '1',
        application_id: APP,
        version: '7',
        type: 1,
        nsfw: false,
        options: [],
      },
    ];
    expect(diffCommands(returned, [FEEDBACK]).unchanged).toEqual(['1:feedback']);
  });

  it('tells a user context menu from a chat command of the same name', () => {
    expect(
      diffCommands([{ name: 'info', type: 2 }], [{ name: 'info', description: 'x' }]),
    ).toMatchObject({
      added: ['1:info'],
      removed: ['2:info'],
    });
  });
});

describe('discordInstallUrl', () => {
  it('builds the authorize link with scopes and the permission integer', () => {
    const url = new URL(
      discordInstallUrl({ clientId: APP, permissions: ['SendMessages', 'AddReactions'] }),
    );
    expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe(APP);
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    expect(url.searchParams.get('permissions')).toBe(String((1n << 11n) | (1n << 6n)));
  });

  it('supports user installs, a preselected guild and a redirect', () => {
    const url = new URL(
      discordInstallUrl({
        clientId: APP,
        scopes: ['applications.commands'],
        integrationType: 1,
        guildId: GUILD,
        disableGuildSelect: true,
        redirectUri: 'https://example.com/discord/callback',
        state: 'abc',
      }),
    );
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      integration_type: '1',
      guild_id: GUILD,
      disable_guild_select: 'true',
      redirect_uri: 'https://example.com/discord/callback',
      response_type: 'code',
      state: 'abc',
    });
  });

  it('refuses unknown permissions, permissions without the bot scope, and a bad client id', () => {
    expect(() => permissionBits(['NoSuchThing' as 'SendMessages'])).toThrow(/unknown permission/);
    expect(() =>
      discordInstallUrl({
        clientId: APP,
        scopes: ['applications.commands'],
        permissions: ['SendMessages'],
      }),
    ).toThrow(/bot/);
    expect(() => discordInstallUrl({ clientId: 'app' })).toThrow(/snowflake/);
  });
});
