/**
 * Fenced TypeScript blocks of a Markdown document, classified by the snippet convention every
 * README and page under `docs/` follows:
 *
 * - ` ```ts `: a complete program, type-checked standalone;
 * - ` ```ts run `: a complete, runnable quick start, type-checked and run against the fakes;
 * - ` ```ts fragment=NAME `: type-checked inside `snippets/NAME.ts` at its `/* fragment *\/` line;
 * - ` ```ts nocheck `: a type-level illustration, not checked.
 *
 * Any other info string on a `ts`/`typescript` fence is a block the checker reports as invalid,
 * so a typo (`ts runn`, `fragment =x`) never silently skips a block. Other languages are ignored.
 */

/** How a TypeScript block is checked. */
export type BlockKind = 'program' | 'run' | 'fragment' | 'nocheck' | 'invalid';

/** One fenced TypeScript block. */
export interface DocBlock {
  /** The document, as given to `extractBlocks` (a repository-relative path in reports). */
  readonly file: string;
  /** 1-based line of the block's first code line in `file`. */
  readonly line: number;
  /** The fence's info string, trimmed (`ts fragment=redis`). */
  readonly info: string;
  readonly kind: BlockKind;
  /** `fragment` only: the NAME of `snippets/NAME.ts`. */
  readonly fragment?: string;
  /** `invalid` only: why. */
  readonly problem?: string;
  /** The code between the fences, newline-terminated. */
  readonly code: string;
}

const OPENING = /^( {0,3})(`{3,}|~{3,})\s*([^`]*)$/;
const TS_LANGUAGES = new Set(['ts', 'typescript']);
const FRAGMENT_NAME = /^fragment=([A-Za-z0-9][A-Za-z0-9_-]*)$/;

/** Classifies an info string whose first word is a TypeScript language. */
function classify(attributes: readonly string[]): Pick<DocBlock, 'kind' | 'fragment' | 'problem'> {
  if (attributes.length === 0) return { kind: 'program' };
  if (attributes.length === 1) {
    const [attribute] = attributes as [string];
    if (attribute === 'run') return { kind: 'run' };
    if (attribute === 'nocheck') return { kind: 'nocheck' };
    const fragment = FRAGMENT_NAME.exec(attribute);
    if (fragment !== null) return { kind: 'fragment', fragment: fragment[1] as string };
  }
  return {
    kind: 'invalid',
    problem: `unknown marker "${attributes.join(' ')}": use ts, ts run, ts fragment=NAME or ts nocheck`,
  };
}

/** One fenced block of any language. */
export interface Fence {
  /** 0-based index of the opening fence line. */
  readonly open: number;
  /** 0-based index of the closing fence line (`lines.length` when never closed). */
  readonly close: number;
  /** The fence's info string, trimmed. */
  readonly info: string;
  /** The first word of `info`, lower-cased (`ts`, `sh`), or `''`. */
  readonly language: string;
  /** The other words of `info`. */
  readonly attributes: readonly string[];
  /** The code between the fences, indentation of the fence removed, newline-terminated. */
  readonly code: string;
}

/**
 * Every fenced block of `markdown`, in order. A fence closes at a line of at least as many of the
 * same fence characters and nothing else; an unclosed fence runs to the end of the document (as
 * CommonMark reads it).
 */
export function extractFences(markdown: string): Fence[] {
  const lines = markdown.split(/\r?\n/);
  const fences: Fence[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const opening = OPENING.exec(lines[index] as string);
    if (opening === null) continue;
    const [, indent, fence, rawInfo] = opening as unknown as [string, string, string, string];
    if (fence.startsWith('`') && rawInfo.includes('`')) continue;
    const info = rawInfo.trim();
    const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = index + 1;
    while (end < lines.length && !closing.test(lines[end] as string)) end += 1;
    const [language = '', ...attributes] = info.split(/\s+/).filter((part) => part.length > 0);
    const body = lines
      .slice(index + 1, end)
      .map((line) => stripIndent(line, indent.length))
      .join('\n');
    fences.push({
      open: index,
      close: end,
      info,
      language: language.toLowerCase(),
      attributes,
      code: `${body}\n`,
    });
    index = end;
  }
  return fences;
}

/**
 * Every fenced block of `markdown` whose language is `ts` or `typescript`, in order (fences as
 * `extractFences` reads them); an unclosed fence is reported as invalid.
 */
export function extractBlocks(markdown: string, file: string): DocBlock[] {
  const lineCount = markdown.split(/\r?\n/).length;
  return extractFences(markdown)
    .filter((fence) => TS_LANGUAGES.has(fence.language))
    .map(
      (fence): DocBlock => ({
        file,
        line: fence.open + 2,
        info: fence.info,
        code: fence.code,
        ...(fence.close >= lineCount
          ? { kind: 'invalid', problem: 'the fence is never closed' }
          : classify(fence.attributes)),
      }),
    );
}

/** Removes up to `width` leading spaces (a fence indented inside a list item indents its code). */
function stripIndent(line: string, width: number): string {
  let cut = 0;
  while (cut < width && line[cut] === ' ') cut += 1;
  return line.slice(cut);
}
