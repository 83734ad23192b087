import { describe, expect, it } from 'vitest';
import {
  bold,
  code,
  codeBlock,
  escapeText,
  italic,
  link,
  list,
  mentionChannel,
  mentionUser,
  quote,
  strike,
} from './markdown.js';
import { type MarkdownSyntax, parseInline, plainText, renderMarkdown } from './markdown-parse.js';

/** A syntax that makes every node visible, to check the tree the subset reads. */
const TAGS: MarkdownSyntax = {
  text: (s) => s,
  bold: (s) => `<b>${s}</b>`,
  italic: (s) => `<i>${s}</i>`,
  strike: (s) => `<s>${s}</s>`,
  code: (s) => `<code>${s}</code>`,
  link: (url, label) => `<a ${url}>${label}</a>`,
  user: (id) => `<user ${id}>`,
  channel: (id) => `<channel ${id}>`,
  codeBlock: (s, lang) => `<pre ${lang}>${s}</pre>`,
  quote: (s) => `<q>${s}</q>`,
  bullet: (s) => `<li>${s}</li>`,
  ordered: (n, s) => `<li ${n}>${s}</li>`,
};

describe('the markdown subset', () => {
  it('reads every inline form, nested ones included', () => {
    const source = `${bold(`a ${italic('b')}`)} ${strike('c')} ${code('d*e')} ${link('https://x.io/p', 'site')} ${mentionUser('U1')} ${mentionChannel('C1')}`;
    expect(renderMarkdown(source, TAGS)).toBe(
      '<b>a <i>b</i></b> <s>c</s> <code>d*e</code> <a https://x.io/p>site</a> <user U1> <channel C1>',
    );
  });

  it('reads code blocks, quotes and lists line by line', () => {
    const source = [
      codeBlock('x = **1**', 'ts'),
      quote('said'),
      list(['one', 'two']),
      list(['first'], { ordered: true }),
    ].join('\n');
    expect(renderMarkdown(source, TAGS)).toBe(
      '<pre ts>x = **1**</pre>\n<q>said</q>\n<li>one</li>\n<li>two</li>\n<li 1>first</li>',
    );
  });

  it('leaves unclosed markers and non-http links as text', () => {
    expect(renderMarkdown('**open _half [x](javascript:alert)', TAGS)).toBe(
      '**open _half [x](javascript:alert)',
    );
  });

  it('renders escaped user text literally, whatever it contains', () => {
    const hostile = '**not bold** _x_ ~~y~~ `z` [a](https://b) <@U1> > q\n- item\n1. n';
    expect(renderMarkdown(escapeText(hostile), TAGS)).toBe(hostile);
    expect(parseInline(escapeText('<@U1>'))).toEqual([{ type: 'text', text: '<@U1>' }]);
  });

  it('gives plain text without markup for fallbacks', () => {
    expect(
      plainText(`${bold('Deploy')} by ${mentionUser('U1')}: ${link('https://x.io', 'log')}`),
    ).toBe('Deploy by @U1: log (https://x.io)');
  });
});
