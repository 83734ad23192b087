import { type MarkdownSyntax, renderMarkdown } from '@rt/core/adapter';

const ZERO_WIDTH_SPACE = '\u200b';

/**
 * Literal text for mrkdwn: `&`, `<`, `>` as entities (Slack's own escaping rule), and the
 * formatting characters followed by a zero-width space so they never pair up into markup.
 */
function literal(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/[*_~`]/g, `$&${ZERO_WIDTH_SPACE}`);
}

/** The markdown subset written as Slack mrkdwn. */
export const MRKDWN_SYNTAX: MarkdownSyntax = Object.freeze({
  text: literal,
  bold: (inner: string) => `*${inner}*`,
  italic: (inner: string) => `_${inner}_`,
  strike: (inner: string) => `~${inner}~`,
  code: (text: string) =>
    `\`${text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')}\``,
  link: (url: string, label: string) =>
    `<${url.replaceAll('|', '%7C').replaceAll('>', '%3E').replaceAll('<', '%3C')}|${label.replaceAll('|', '¦')}>`,
  user: (id: string) => `<@${id}>`,
  channel: (id: string) => `<#${id}>`,
  codeBlock: (text: string) =>
    `\`\`\`\n${text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')}\n\`\`\``,
  quote: (line: string) => `> ${line}`,
  bullet: (line: string) => `• ${line}`,
  ordered: (number: number, line: string) => `${number}. ${line}`,
});

/** Markdown-subset text as Slack mrkdwn. */
export function toMrkdwn(markdown: string): string {
  return renderMarkdown(markdown, MRKDWN_SYNTAX);
}

/** Plain text for a `plain_text` object: only Slack's entity escaping. */
export function plain(text: string): { type: 'plain_text'; text: string; emoji: true } {
  return { type: 'plain_text', text, emoji: true };
}
