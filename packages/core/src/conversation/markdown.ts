/**
 * The markdown subset every adapter renders (docs/messages.md): `**bold**`, `_italic_`,
 * `~~strike~~`, `` `code` ``, fenced code blocks, `> quote` lines, `- ` and `1. ` list lines,
 * `[label](https://...)` links, and mentions written with `mentionUser` / `mentionChannel`. A
 * backslash before any ASCII punctuation makes it literal. Strings posted through `ctx.reply`,
 * `ctx.post` and card text are read in this subset; user-supplied text goes through `escapeText`.
 * These helpers build such strings; they never throw.
 */

const INLINE_SPECIAL = /[\\*_~`[\]()<>|]/g;
const LINE_START = /^(\s*)([-#>+]|\d+\.)/gm;

/** `text` with every character the subset gives a meaning escaped, so it renders literally. */
export function escapeText(text: string): string {
  return text
    .replace(INLINE_SPECIAL, '\\$&')
    .replace(LINE_START, (_all, space: string, mark: string) =>
      mark.endsWith('.') ? `${space}${mark.slice(0, -1)}\\.` : `${space}\\${mark}`,
    );
}

/** `**text**`: bold. `text` is markdown; escape user text first. */
export function bold(text: string): string {
  return `**${text}**`;
}

/** `_text_`: italic. */
export function italic(text: string): string {
  return `_${text}_`;
}

/** `~~text~~`: struck through. */
export function strike(text: string): string {
  return `~~${text}~~`;
}

/** An inline code span; backticks inside are replaced by a look-alike (no nesting in the subset). */
export function code(text: string): string {
  return `\`${text.replaceAll('`', 'ˋ')}\``;
}

/** A fenced code block (its content is literal); a fence inside the text is broken up. */
export function codeBlock(text: string, language = ''): string {
  return `\`\`\`${language}\n${text.replaceAll('```', '`\u200b``')}\n\`\`\``;
}

/** Every line of `text` as a quote line (`> `). */
export function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** A link: `[label](url)`. `url` must be http(s); brackets in the label are escaped. */
export function link(url: string, label: string = url): string {
  return `[${label.replace(/[[\]]/g, '\\$&')}](${url.replace(/[()\s]/g, encodeURIComponent)})`;
}

/** A bulleted (`- `) or numbered (`1. `) list, one item per line. */
export function list(
  items: readonly string[],
  options: { readonly ordered?: boolean } = {},
): string {
  return items
    .map((item, index) => `${options.ordered === true ? `${index + 1}.` : '-'} ${item}`)
    .join('\n');
}

/** A mention of a user by platform user id; renders as a mention (a ping) on every platform. */
export function mentionUser(userId: string): string {
  return `<@${userId}>`;
}

/** A mention of a channel by platform channel id. */
export function mentionChannel(channelId: string): string {
  return `<#${channelId}>`;
}
