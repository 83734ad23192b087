import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '@rt/core';
import {
  buildAutocomplete,
  buildButton,
  buildChatInputCommand,
  buildModalSubmit,
  buildPing,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type FakeDiscordRest,
  startFakeDiscordRest,
} from '@rt/testing/discord';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bot, createBot } from './bot.js';
import { COMMANDS } from './commands.js';
import { installLink, registerCommands } from './register-commands.js';

const TOKEN = 'example-bot-token';
const EDIT_ORIGINAL = 'PATCH /webhooks/:application/:token/messages/:message' as const;
const FOLLOW_UP = 'POST /webhooks/:application/:token' as const;

describe('the Discord example bot over real HTTP, against a fake Discord REST', () => {
  const signer = createDiscordSigner();
  let fake: FakeDiscordRest;
  let bot: Bot;
  let server: Server;
  let url: string;

  beforeEach(async () => {
    fake = await startFakeDiscordRest({ tokens: [TOKEN] });
    bot = createBot({
      publicKey: signer.publicKey,
      applicationId: DISCORD_TEST_IDS.applicationId,
      token: TOKEN,
      apiUrl: fake.url,
      askWorkMs: 0,
    });
    server = createServer(toNodeListener(bot.handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/interactions`;
  });

  afterEach(async () => {
    await bot.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await fake.close();
  });

  /** POSTs `payload` signed to the bot's server; the fake learns its channel. */
  async function send(payload: { token: string; channel_id?: unknown }): Promise<Response> {
    fake.knowInteraction(payload);
    const request = signer.request(payload, { url });
    return fetch(url, { method: 'POST', headers: request.headers, body: await request.text() });
  }

  it('answers Discord’s PING, and 401 to a bad signature', async () => {
    expect(await (await send(buildPing())).json()).toEqual({ type: 1 });
    const forged = createDiscordSigner().request(buildPing(), { url });
    const response = await fetch(url, {
      method: 'POST',
      headers: forged.headers,
      body: await forged.text(),
    });
    expect(response.status).toBe(401);
  });

  it('/ask answers "thinking…" at once, then replaces it with the answer and a button', async () => {
    const payload = buildChatInputCommand({ name: 'ask', options: { topic: 'locks' } });
    expect(await (await send(payload)).json()).toEqual({ type: 5 });
    const [edit] = await fake.waitForCalls(EDIT_ORIGINAL);
    expect(edit?.params).toMatchObject({ token: payload.token, message: '@original' });
    expect(edit?.body).toMatchObject({
      content: expect.stringContaining('**locks**'),
      components: [{ type: 1, components: [{ custom_id: 'helpful' }] }],
    });
  });

  it('completes /ask topics while the user types', async () => {
    const response = await send(
      buildAutocomplete({ name: 'ask', focused: { name: 'topic', value: 'lo' } }),
    );
    expect(await response.json()).toEqual({
      type: 8,
      data: { choices: [{ name: 'locks', value: 'locks' }] },
    });
  });

  it('the Helpful button gets an ephemeral follow-up', async () => {
    expect(await (await send(buildButton({ customId: 'helpful' }))).json()).toEqual({ type: 6 });
    const [followUp] = await fake.waitForCalls(FOLLOW_UP);
    expect(followUp?.body).toEqual({ content: 'Glad it helped!', flags: 64 });
  });

  it('/feedback opens a modal, and its submission is thanked ephemerally', async () => {
    const modal = (await (await send(buildChatInputCommand({ name: 'feedback' }))).json()) as {
      type: number;
      data: { custom_id: string };
    };
    expect(modal.type).toBe(9);
    expect(modal.data.custom_id).toBe('feedback-form');
    const submitted = buildModalSubmit({ customId: 'feedback-form', fields: { comment: 'nice' } });
    expect(await (await send(submitted)).json()).toEqual({ type: 5, data: { flags: 64 } });
    const [edit] = await fake.waitForCalls(EDIT_ORIGINAL);
    expect(edit?.body).toEqual({
      content: 'Thanks for your feedback (4 characters).',
      allowed_mentions: { parse: ['users'] },
    });
  });

  it('registers its commands with the bot token', async () => {
    const dry = await registerCommands(bot.discord, DISCORD_TEST_IDS.applicationId, {
      guildId: '42',
      dryRun: true,
    });
    expect(dry).toMatchObject({ written: false, added: ['1:ask', '1:feedback'] });
    const registered = await registerCommands(bot.discord, DISCORD_TEST_IDS.applicationId, {
      guildId: '42',
    });
    expect(registered).toMatchObject({ written: true, added: ['1:ask', '1:feedback'] });
    const again = await registerCommands(bot.discord, DISCORD_TEST_IDS.applicationId, {
      guildId: '42',
    });
    expect(again).toMatchObject({ written: false, unchanged: ['1:ask', '1:feedback'] });
    const [call] = fake.callsTo('PUT /applications/:application/guilds/:guild/commands');
    expect(call).toMatchObject({ token: TOKEN, body: COMMANDS, params: { guild: '42' } });
    const link = new URL(installLink(DISCORD_TEST_IDS.applicationId));
    expect(link.searchParams.get('scope')).toBe('bot applications.commands');
    expect(Number(link.searchParams.get('permissions'))).toBeGreaterThan(0);
  });
});
