/**
 * Reads the markdown subset (`markdown.ts`) into a small tree and renders it with a platform's
 * syntax: the one place both adapters share the grammar, so `**a**` means the same everywhere.
 * Unclosed markers are literal text; nothing here throws.
 */

/** An inline node of the subset. */
export type InlineNode =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'bold' | 'italic' | 'strike'; readonly children: readonly InlineNode[] }
  | { readonly type: 'code'; readonly text: string }
  | { readonly type: 'link'; readonly url: string; readonly children: readonly InlineNode[] }
  | { readonly type: 'user' | 'channel'; readonly id: string };

/** A line-level node of the subset. */
export type BlockNode =
  | { readonly type: 'line' | 'quote' | 'bullet'; readonly children: readonly InlineNode[] }
  | { readonly type: 'ordered'; readonly number: number; readonly children: readonly InlineNode[] }
  | { readonly type: 'code_block'; readonly language: string; readonly text: string };

/** How a platform writes each node. `text` receives literal text and escapes it for the platform. */
export interface MarkdownSyntax {
  text(literal: string): string;
  bold(inner: string): string;
  italic(inner: string): string;
  strike(inner: string): string;
  code(literal: string): string;
  link(url: string, label: string): string;
  user(id: string): string;
  channel(id: string): string;
  codeBlock(literal: string, language: string): string;
  quote(line: string): string;
  bullet(line: string): string;
  ordered(number: number, line: string): string;
}

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const MENTION = /^<([@#])([A-Za-z0-9]+)>/;

function closing(source: string, from: number, marker: string): number {
  for (let i = from; i < source.length; i += 1) {
    const char = source[i];
    if (char === '\\') {
      i += 1;
      continue;
    }
    if (char === '`') {
      const end = source.indexOf('`', i + 1);
      if (end === -1) return -1;
      i = end;
      continue;
    }
    if (source.startsWith(marker, i) && i > from) return i;
  }
  return -1;
}

/** Parses one line of inline markdown. */
export function parseInline(source: string): InlineNode[] {
  const nodes: InlineNode[] = [];
  let text = '';
  const flush = () => {
    if (text.length > 0) nodes.push({ type: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < source.length) {
    const char = source[i] as string;
    const next = source[i + 1];
    if (char === '\\' && next !== undefined && PUNCTUATION.test(next)) {
      text += next;
      i += 2;
      continue;
    }
    if (char === '`') {
      const end = source.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        nodes.push({ type: 'code', text: source.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    const pair = source.startsWith('**', i) ? '**' : source.startsWith('~~', i) ? '~~' : undefined;
    const marker = pair ?? (char === '_' ? '_' : undefined);
    if (marker !== undefined) {
      const end = closing(source, i + marker.length, marker);
      if (end !== -1) {
        flush();
        const type = marker === '**' ? 'bold' : marker === '~~' ? 'strike' : 'italic';
        nodes.push({ type, children: parseInline(source.slice(i + marker.length, end)) });
        i = end + marker.length;
        continue;
      }
    }
    if (char === '[') {
      const end = closing(source, i + 1, ']');
      if (end !== -1 && source[end + 1] === '(') {
        const close = source.indexOf(')', end + 2);
        const url = close === -1 ? '' : source.slice(end + 2, close);
        if (/^https?:\/\/\S+$/.test(url)) {
          flush();
          nodes.push({ type: 'link', url, children: parseInline(source.slice(i + 1, end)) });
          i = close + 1;
          continue;
        }
      }
    }
    if (char === '<') {
      const mention = MENTION.exec(source.slice(i));
      if (mention !== null) {
        flush();
        nodes.push({ type: mention[1] === '@' ? 'user' : 'channel', id: mention[2] as string });
        i += mention[0].length;
        continue;
      }
    }
    text += char;
    i += 1;
  }
  flush();
  return nodes;
}

/** Parses markdown text into line-level nodes (fenced code blocks keep their lines). */
export function parseMarkdown(source: string): BlockNode[] {
  const lines = source.split('\n');
  const blocks: BlockNode[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence !== null) {
      const end = lines.indexOf('```', i + 1);
      if (end !== -1) {
        blocks.push({
          type: 'code_block',
          language: fence[1] ?? '',
          text: lines.slice(i + 1, end).join('\n'),
        });
        i = end;
        continue;
      }
    }
    const quote = /^> ?(.*)$/.exec(line);
    if (quote !== null) {
      blocks.push({ type: 'quote', children: parseInline(quote[1] ?? '') });
      continue;
    }
    const bullet = /^[-*] (.*)$/.exec(line);
    if (bullet !== null) {
      blocks.push({ type: 'bullet', children: parseInline(bullet[1] ?? '') });
      continue;
    }
    const ordered = /^(\d+)\. (.*)$/.exec(line);
    if (ordered !== null) {
      blocks.push({
        type: 'ordered',
        number: Number(ordered[1]),
        children: parseInline(ordered[2] ?? ''),
      });
      continue;
    }
    blocks.push({ type: 'line', children: parseInline(line) });
  }
  return blocks;
}

function renderInline(nodes: readonly InlineNode[], syntax: MarkdownSyntax): string {
  let out = '';
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        out += syntax.text(node.text);
        break;
      case 'bold':
      case 'italic':
      case 'strike':
        out += syntax[node.type](renderInline(node.children, syntax));
        break;
      case 'code':
        out += syntax.code(node.text);
        break;
      case 'link':
        out += syntax.link(node.url, renderInline(node.children, syntax));
        break;
      case 'user':
      case 'channel':
        out += syntax[node.type](node.id);
        break;
    }
  }
  return out;
}

/** Renders markdown-subset `source` with a platform's `syntax`. */
export function renderMarkdown(source: string, syntax: MarkdownSyntax): string {
  return parseMarkdown(source)
    .map((block) => {
      if (block.type === 'code_block') return syntax.codeBlock(block.text, block.language);
      const line = renderInline(block.children, syntax);
      if (block.type === 'quote') return syntax.quote(line);
      if (block.type === 'bullet') return syntax.bullet(line);
      if (block.type === 'ordered') return syntax.ordered(block.number, line);
      return line;
    })
    .join('\n');
}

/** The subset's text without any markup (notification fallbacks, plain-text fields). */
export const PLAIN_SYNTAX: MarkdownSyntax = Object.freeze({
  text: (literal: string) => literal,
  bold: (inner: string) => inner,
  italic: (inner: string) => inner,
  strike: (inner: string) => inner,
  code: (literal: string) => literal,
  link: (url: string, label: string) => (label === url ? url : `${label} (${url})`),
  user: (id: string) => `@${id}`,
  channel: (id: string) => `#${id}`,
  codeBlock: (literal: string) => literal,
  quote: (line: string) => line,
  bullet: (line: string) => `• ${line}`,
  ordered: (number: number, line: string) => `${number}. ${line}`,
});

/** `source` as plain text (markup removed, mentions as `@id`). */
export function plainText(source: string): string {
  return renderMarkdown(source, PLAIN_SYNTAX);
}
