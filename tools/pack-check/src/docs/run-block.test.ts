import { describe, expect, it } from 'vitest';
import { discordCommandOf, platformsOf } from './run-block.js';

describe('platformsOf', () => {
  it('names the platforms whose adapter the block imports', () => {
    expect(platformsOf("import { createSlackAdapter } from '@rt/adapter-slack';")).toEqual({
      slack: true,
      discord: false,
    });
    expect(platformsOf('import { createDiscordAdapter } from "@rt/adapter-discord";')).toEqual({
      slack: false,
      discord: true,
    });
  });
});

describe('discordCommandOf', () => {
  it('sends the first command the block routes', () => {
    const code = 'runtime.onCommand(\'ask\', handler);\nruntime.onCommand("other", handler);';
    expect(discordCommandOf(code)).toBe('ask');
  });

  it('falls back to ping when the block routes no command', () => {
    expect(discordCommandOf('runtime.onMention((ctx) => ctx.reply("hi"));')).toBe('ping');
  });
});
