import { DISCORD_TEST_IDS } from './payloads.js';

/** A guild the fake lists in READY and describes in its GUILD_CREATE. */
export interface FakeGatewayGuild {
  readonly id: string;
  readonly name?: string;
  /** Channel objects (`{ id, type, name, ... }`); `guild_id` is filled in. */
  readonly channels?: readonly Record<string, unknown>[];
  /** Active thread channel objects (`{ id, type: 11, parent_id, ... }`); `guild_id` is filled in. */
  readonly threads?: readonly Record<string, unknown>[];
}

/** The public thread of the default guild, in its text channel `DISCORD_TEST_IDS.channelId`. */
export const FAKE_GATEWAY_THREAD_ID = '310000000000000031';

/** The guilds of a fake gateway without `guilds`: the test guild only. */
export function defaultGuilds(): FakeGatewayGuild[] {
  return [
    {
      id: DISCORD_TEST_IDS.guildId,
      name: 'test guild',
      channels: [{ id: DISCORD_TEST_IDS.channelId, type: 0, name: 'general', position: 0 }],
      threads: [
        {
          id: FAKE_GATEWAY_THREAD_ID,
          type: 11,
          name: 'a thread',
          parent_id: DISCORD_TEST_IDS.channelId,
          owner_id: DISCORD_TEST_IDS.userId,
          thread_metadata: {
            archived: false,
            auto_archive_duration: 1440,
            archive_timestamp: new Date(0).toISOString(),
            locked: false,
          },
        },
      ],
    },
  ];
}

/** The GUILD_CREATE payload of `guild`, complete enough for discord.js 14 to cache it. */
export function guildCreate(guild: FakeGatewayGuild): Record<string, unknown> {
  const withGuild = (c: Record<string, unknown>) => ({ ...c, guild_id: guild.id });
  return {
    id: guild.id,
    name: guild.name ?? `guild ${guild.id}`,
    icon: null,
    owner_id: DISCORD_TEST_IDS.userId,
    unavailable: false,
    member_count: 2,
    large: false,
    joined_at: new Date(0).toISOString(),
    features: [],
    roles: [
      {
        id: guild.id,
        name: '@everyone',
        permissions: '2248473465835073',
        position: 0,
        color: 0,
        hoist: false,
        managed: false,
        mentionable: false,
        flags: 0,
      },
    ],
    emojis: [],
    stickers: [],
    members: [],
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    channels: (guild.channels ?? []).map(withGuild),
    threads: (guild.threads ?? []).map(withGuild),
  };
}
