import { scopeKeyOf } from '@rt/core';
import {
  buildAutocomplete,
  buildButton,
  buildChatInputCommand,
  buildMessageCommand,
  buildModalSubmit,
  buildSelect,
  buildUserCommand,
  DISCORD_TEST_IDS,
} from '@rt/testing/discord';
import { describe, expect, it } from 'vitest';
import { parseInteraction } from '../parse/parse-interaction.js';
import { commandInvocationOf, componentValuesOf, modalValuesOf } from './event-data.js';
import { normalizeInteraction } from './normalize-interaction.js';

function normalize(payload: unknown) {
  const parsed = parseInteraction(JSON.stringify(payload));
  if (parsed.type !== 'interaction') throw new Error('not an interaction');
  return normalizeInteraction(parsed.shape, parsed.interaction, {
    adapter: 'discord',
    receivedAt: 5,
  });
}

const { guildId, channelId, userId, applicationId } = DISCORD_TEST_IDS;

describe('normalising interactions to neutral kinds', () => {
  it('a chat-input command becomes a command with its options as text', () => {
    const payload = buildChatInputCommand({
      name: 'config',
      subcommandGroup: 'user',
      subcommand: 'set',
      options: { key: 'theme', dark: true },
    });
    const event = normalize(payload);
    expect(event).toMatchObject({
      adapter: 'discord',
      tenant: guildId,
      id: payload.id,
      kind: 'command',
      shape: 'application_command',
      type: 'chat_input',
      command: 'config',
      text: 'user set key:theme dark:true',
      channel: channelId,
      user: userId,
      receivedAt: 5,
    });
    expect(event.thread).toBeUndefined();
    expect(event.payload).toEqual(payload);
    expect(commandInvocationOf(event)).toEqual({
      subcommandGroup: 'user',
      subcommand: 'set',
      options: { key: 'theme', dark: true },
    });
  });

  it('user and message context-menu commands become shortcuts named by the command', () => {
    expect(normalize(buildUserCommand({ name: 'Profile' }))).toMatchObject({
      kind: 'shortcut',
      type: 'user',
      shortcutId: 'Profile',
    });
    expect(
      normalize(buildMessageCommand({ name: 'Summarise', content: 'long text' })),
    ).toMatchObject({
      kind: 'shortcut',
      type: 'message',
      shortcutId: 'Summarise',
      text: 'long text',
    });
  });

  it('buttons and selects become actions with their custom_id', () => {
    expect(normalize(buildButton({ customId: 'approve' }))).toMatchObject({
      kind: 'action',
      shape: 'message_component',
      type: 'button',
      actionId: 'approve',
    });
    const select = normalize(buildSelect({ customId: 'pick', values: ['a', 'b'] }));
    expect(select).toMatchObject({ kind: 'action', type: 'string_select', actionId: 'pick' });
    expect(componentValuesOf(select)).toEqual(['a', 'b']);
  });

  it('a modal submit becomes a form submission with its field values, in either layout', () => {
    for (const labels of [false, true]) {
      const event = normalize(
        buildModalSubmit({
          customId: 'feedback',
          fields: { title: 'Bug', body: 'It broke' },
          labels,
        }),
      );
      expect(event).toMatchObject({
        kind: 'form_submit',
        shape: 'modal_submit',
        formId: 'feedback',
      });
      expect(modalValuesOf(event)).toEqual({ title: 'Bug', body: 'It broke' });
    }
  });

  it('autocomplete becomes a suggestion for the focused option', () => {
    const event = normalize(
      buildAutocomplete({
        name: 'ask',
        focused: { name: 'topic', value: 'ca' },
        options: { lang: 'en' },
      }),
    );
    expect(event).toMatchObject({
      kind: 'suggestion',
      shape: 'autocomplete',
      command: 'ask',
      actionId: 'topic',
      text: 'ca',
    });
    expect(commandInvocationOf(event).focused).toEqual({ name: 'topic', value: 'ca' });
  });

  it('in a thread, thread is the thread channel and channel its parent (lock keys per docs/contract.md §9.2)', () => {
    const event = normalize(
      buildChatInputCommand({ channelId: '333', channelType: 11, parentId: '222' }),
    );
    expect(event).toMatchObject({ channel: '222', thread: '333' });
    expect(scopeKeyOf(event, 'thread')).toBe(`discord:${guildId}:222:333`);
    expect(scopeKeyOf(event, 'channel')).toBe(`discord:${guildId}:222`);
    const outside = normalize(buildChatInputCommand({ channelId: '444' }));
    expect(scopeKeyOf(outside, 'thread')).toBe(`discord:${guildId}:event:${outside.id}`);
    expect(scopeKeyOf(outside, 'channel')).toBe(`discord:${guildId}:444`);
  });

  it('tenants: the guild, user:<id> for a user install outside guilds, dm:<application_id> otherwise', () => {
    expect(normalize(buildChatInputCommand()).tenant).toBe(guildId);
    expect(normalize(buildChatInputCommand({ owners: { '1': '777' } })).tenant).toBe(guildId);
    expect(normalize(buildChatInputCommand({ guildId: null })).tenant).toBe(`dm:${applicationId}`);
    const userInstall = normalize(buildChatInputCommand({ guildId: null, owners: { '1': '777' } }));
    expect(userInstall.tenant).toBe('user:777');
    expect(userInstall.user).toBe(userId);
  });
});
