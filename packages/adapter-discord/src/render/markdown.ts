import { type MarkdownSyntax, renderMarkdown } from '@rt/core/adapter';

const INLINE = /[\\*_~`|[\]<>]/g;
const LEADING = /^(\s*)([#>+-]|\d+\.)/;

/** Literal text for Discord markdown: markup characters backslash-escaped (Discord drops the `\`). */
function literal(text: string): string {
  return text
    .replace(INLINE, '\\$&')
    .replace(LEADING, (_all, space: string, mark: string) =>
      mark.endsWith('.') ? `${space}${mark.slice(0, -1)}\\.` : `${space}\\${mark}`,
    );
}

/** The markdown subset written as Discord markdown. */
export const DISCORD_SYNTAX: MarkdownSyntax = Object.freeze({
  text: literal,
  bold: (inner: string) => `**${inner}**`,
  italic: (inner: string) => `*${inner}*`,
  strike: (inner: string) => `~~${inner}~~`,
  code: (text: string) => `\`${text}\``,
  link: (url: string, label: string) => `[${label}](${url})`,
  user: (id: string) => `<@${id}>`,
  channel: (id: string) => `<#${id}>`,
  codeBlock: (text: string, language: string) => `\`\`\`${language}\n${text}\n\`\`\``,
  quote: (line: string) => `> ${line}`,
  bullet: (line: string) => `- ${line}`,
  ordered: (number: number, line: string) => `${number}. ${line}`,
});

/** Markdown-subset text as Discord markdown. */
export function toDiscordMarkdown(markdown: string): string {
  return renderMarkdown(markdown, DISCORD_SYNTAX);
}

/**
 * Splits `text` into parts of at most `max` characters (code points), at paragraph boundaries
 * (blank lines) where it can, else at line ends, else hard: Discord's policy for long text is
 * several messages, each complete.
 */
export function splitText(text: string, max: number): string[] {
  if ([...text].length <= max) return [text];
  const parts: string[] = [];
  let current = '';
  const push = () => {
    if (current.length > 0) parts.push(current);
    current = '';
  };
  const units = text.split(/(\n\n)/).flatMap((unit) => (unit === '\n\n' ? [] : [unit]));
  for (const paragraph of units) {
    for (const piece of fit(paragraph, max)) {
      const joined = current.length === 0 ? piece : `${current}\n\n${piece}`;
      if ([...joined].length <= max) current = joined;
      else {
        push();
        current = piece;
      }
    }
  }
  push();
  return parts;
}

/** A paragraph as pieces of at most `max`: whole lines where possible, else hard cuts. */
function fit(paragraph: string, max: number): string[] {
  if ([...paragraph].length <= max) return [paragraph];
  const pieces: string[] = [];
  let current = '';
  for (const line of paragraph.split('\n')) {
    const chars = [...line];
    if (chars.length > max) {
      if (current.length > 0) pieces.push(current);
      current = '';
      for (let i = 0; i < chars.length; i += max) pieces.push(chars.slice(i, i + max).join(''));
      continue;
    }
    const joined = current.length === 0 ? line : `${current}\n${line}`;
    if ([...joined].length <= max) current = joined;
    else {
      pieces.push(current);
      current = line;
    }
  }
  if (current.length > 0) pieces.push(current);
  return pieces;
}
