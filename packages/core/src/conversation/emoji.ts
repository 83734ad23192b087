/**
 * Neutral emoji for `ctx.react`: a Unicode emoji (`👀`) or a `:name:` / `name` Slack-style short
 * name. Slack reacts by name, Discord by character: these tables translate the common ones both
 * ways. Anything else must be given in the platform's own form (a Slack custom `name`, a Discord
 * custom `name:id`).
 */
const NAMED: Readonly<Record<string, string>> = Object.freeze({
  eyes: '👀',
  thumbsup: '👍',
  '+1': '👍',
  thumbsdown: '👎',
  '-1': '👎',
  white_check_mark: '✅',
  heavy_check_mark: '✔️',
  x: '❌',
  warning: '⚠️',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  tada: '🎉',
  heart: '❤️',
  fire: '🔥',
  rocket: '🚀',
  wave: '👋',
  pray: '🙏',
  thinking_face: '🤔',
  smile: '😄',
  raised_hands: '🙌',
  clap: '👏',
  ok_hand: '👌',
  question: '❓',
  memo: '📝',
});

const BY_CHARACTER: ReadonlyMap<string, string> = new Map(
  Object.entries(NAMED)
    .filter(([name]) => name !== '+1' && name !== '-1')
    .map(([name, character]) => [character, name]),
);

/** `:name:` or `name` without colons; `undefined` when `emoji` is not a short name. */
function shortName(emoji: string): string | undefined {
  const bare =
    emoji.startsWith(':') && emoji.endsWith(':') && emoji.length > 2 ? emoji.slice(1, -1) : emoji;
  return /^[a-z0-9_+\-']+$/i.test(bare) ? bare : undefined;
}

/** The short name of `emoji` (Slack's form), or `undefined` for an unknown Unicode emoji. */
export function emojiName(emoji: string): string | undefined {
  return (
    shortName(emoji) ?? BY_CHARACTER.get(emoji) ?? BY_CHARACTER.get(emoji.replace('\ufe0f', ''))
  );
}

/**
 * The Unicode character of `emoji` (Discord's form): a known short name translated, a character
 * or a custom `name:id` unchanged; `undefined` for an unknown short name.
 */
export function emojiCharacter(emoji: string): string | undefined {
  if (/^[\w-]+:\d+$/.test(emoji)) return emoji;
  const name = shortName(emoji);
  if (name === undefined) return emoji;
  return NAMED[name];
}
