import type { DiscordChoice } from '@rt/adapter-discord';
import type { Handler } from '@rt/core';
import { TOPICS } from '../commands.js';

/** Autocomplete of `/ask topic` (sync: the returned choices are the answer, at most 25). */
export const topicAutocomplete: Handler = (ctx): DiscordChoice[] => {
  const typed = (ctx.event.text ?? '').toLowerCase();
  return TOPICS.filter((topic) => topic.includes(typed)).map((topic) => ({
    name: topic,
    value: topic,
  }));
};
