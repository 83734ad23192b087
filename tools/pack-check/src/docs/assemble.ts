/**
 * Turns doc blocks into the TypeScript files one `tsc` run checks, and maps the compiler's
 * diagnostics back to the document line they come from.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocBlock } from './extract.js';

/** The line of a fragment template where a fragment's text goes. */
export const FRAGMENT_MARKER = '/* fragment */';

/** One file of the consumer project built from one block. */
export interface CheckFile {
  /** Path inside the consumer project (`checks/<doc>.L<line>.ts`). */
  readonly path: string;
  readonly text: string;
  readonly block: DocBlock;
  /** 0-based line of `text` where the block's first line sits (0 unless a fragment). */
  readonly offset: number;
  /** Number of lines the block occupies in `text`. */
  readonly lines: number;
  /** A fragment's template, repository-relative, for reporting lines outside the block. */
  readonly template?: string;
}

/** Something wrong with one block, where a reader finds it. */
export interface BlockProblem {
  /** `file:line` of the block's line (or of the template line). */
  readonly where: string;
  readonly message: string;
}

/** What `assembleBlocks` made: the files to check, and the blocks that could not become one. */
export interface Assembled {
  readonly files: readonly CheckFile[];
  readonly problems: readonly BlockProblem[];
}

/** `checks/packages-core-README.md.L42.ts` for block line 42 of `packages/core/README.md`. */
export function checkPathOf(block: DocBlock): string {
  return `checks/${block.file.replace(/[^A-Za-z0-9.-]+/g, '-')}.L${block.line}.ts`;
}

/**
 * Builds a file per checked block: a program or run block as is; a fragment inside
 * `templatesDir/NAME.ts` in place of its `/* fragment *\/` line. `nocheck` blocks are skipped;
 * an invalid block, a missing template or a template without the marker line is a problem.
 * `templatesLabel` is how reports name `templatesDir` (repository-relative).
 */
export function assembleBlocks(
  blocks: readonly DocBlock[],
  templatesDir: string,
  templatesLabel: string,
): Assembled {
  const files: CheckFile[] = [];
  const problems: BlockProblem[] = [];
  for (const block of blocks) {
    const where = `${block.file}:${block.line}`;
    const lines = block.code.split('\n').length - 1;
    if (block.kind === 'nocheck') continue;
    if (block.kind === 'invalid') {
      problems.push({ where, message: block.problem ?? 'invalid block' });
      continue;
    }
    if (block.kind !== 'fragment') {
      files.push({ path: checkPathOf(block), text: block.code, block, offset: 0, lines });
      continue;
    }
    const template = `${templatesLabel}/${block.fragment}.ts`;
    const templatePath = join(templatesDir, `${block.fragment}.ts`);
    if (!existsSync(templatePath)) {
      problems.push({ where, message: `fragment=${block.fragment}: ${template} does not exist` });
      continue;
    }
    const templateLines = readFileSync(templatePath, 'utf8').split('\n');
    const offset = templateLines.findIndex((line) => line.trim() === FRAGMENT_MARKER);
    if (offset < 0) {
      problems.push({
        where,
        message: `fragment=${block.fragment}: ${template} has no line "${FRAGMENT_MARKER}"`,
      });
      continue;
    }
    const text = [
      ...templateLines.slice(0, offset),
      block.code.replace(/\n$/, ''),
      ...templateLines.slice(offset + 1),
    ].join('\n');
    files.push({ path: checkPathOf(block), text, block, offset, lines, template });
  }
  return { files, problems };
}

/** One compiler diagnostic: `file(line,col): error TSnnnn: message`, continuation lines included. */
interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

const DIAGNOSTIC = /^(.+?)\((\d+),(\d+)\): (error TS\d+: .*)$/;

/** Parses `tsc --pretty false` output; lines that start no diagnostic continue the previous one. */
export function parseDiagnostics(output: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const general: string[] = [];
  for (const line of output.split('\n')) {
    const match = DIAGNOSTIC.exec(line);
    if (match !== null) {
      const [, file, row, column, message] = match as unknown as [
        string,
        string,
        string,
        string,
        string,
      ];
      diagnostics.push({ file, line: Number(row), column: Number(column), message });
    } else if (line.trim().length > 0) {
      const last = diagnostics.at(-1);
      if (last !== undefined && /^\s/.test(line)) {
        diagnostics[diagnostics.length - 1] = { ...last, message: `${last.message}\n${line}` };
      } else {
        general.push(line);
      }
    }
  }
  return [...diagnostics, ...general.map((message) => ({ file: '', line: 0, column: 0, message }))];
}

/**
 * The compiler's diagnostics as block problems: a diagnostic inside a block is reported at its
 * document line; one in a fragment template's own lines at the template line (naming the block);
 * one in a dependency's types (`node_modules/...`, checked since `skipLibCheck` is off) as is.
 */
export function problemsOf(output: string, files: readonly CheckFile[]): BlockProblem[] {
  const byPath = new Map(files.map((file) => [file.path, file]));
  return parseDiagnostics(output).map((diagnostic) => {
    const file = byPath.get(diagnostic.file.split('\\').join('/'));
    if (file === undefined) {
      const where = diagnostic.file === '' ? 'tsc' : `${diagnostic.file}:${diagnostic.line}`;
      return { where, message: diagnostic.message };
    }
    const row = diagnostic.line - 1 - file.offset;
    if (row >= 0 && row < file.lines) {
      return {
        where: `${file.block.file}:${file.block.line + row}:${diagnostic.column}`,
        message: diagnostic.message,
      };
    }
    const templateRow = row < 0 ? diagnostic.line : diagnostic.line - file.lines + 1;
    return {
      where: `${file.template}:${templateRow}`,
      message: `${diagnostic.message} (in the template of ${file.block.file}:${file.block.line})`,
    };
  });
}
