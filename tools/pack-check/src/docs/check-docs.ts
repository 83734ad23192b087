/**
 * The docs check: every fenced TypeScript block of the documents the convention covers, checked in
 * one consumer project installed from the tarballs. One `tsc` run over every block (strict,
 * `skipLibCheck: false`, `exactOptionalPropertyTypes`, the current `@types/node`), then each
 * `ts run` block that compiled is run against the fakes (`run-block.ts`).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { assembleBlocks, type BlockProblem, problemsOf } from './assemble.js';
import { LIB_CHECK_EXEMPT } from './docs-fixtures.js';
import { type DocBlock, extractBlocks } from './extract.js';
import { discordCommandOf, platformsOf, runQuickStart } from './run-block.js';
import { documentedFiles } from './sources.js';

/**
 * The compiler options every block is checked under: what `tsc --init` turns on, plus
 * `skipLibCheck: false` so the published declarations (and what they pull in) are checked too.
 */
export const DOCS_COMPILER_OPTIONS = Object.freeze({
  target: 'ES2022',
  lib: ['ES2023'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  moduleDetection: 'force',
  types: ['node'],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: false,
  outDir: 'dist',
  rootDir: '.',
});

const EXEMPT_IMPORT = new RegExp(
  `from\\s+['"](?:${LIB_CHECK_EXEMPT.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(?:/[^'"]*)?['"]`,
);

/** Whether a check file imports one of `LIB_CHECK_EXEMPT` (or a subpath of one). */
export function importsLibCheckExempt(text: string): boolean {
  return EXEMPT_IMPORT.test(text);
}

/** Where the documents and fragment templates are. */
export interface DocsCheckOptions {
  /** The tree whose documents are checked (the repository, or a fixture tree). */
  readonly root: string;
  /** Where `fragment=NAME` blocks find `NAME.ts`. */
  readonly templatesDir: string;
  /** How reports name `templatesDir`. */
  readonly templatesLabel: string;
  /** A consumer project with the tarballs (and what the docs import) installed. */
  readonly project: string;
}

/** What the check found. */
export interface DocsReport {
  readonly blocks: readonly DocBlock[];
  /** Blocks type-checked (programs, run blocks, fragments). */
  readonly checked: number;
  /** Run blocks run. */
  readonly ran: number;
  readonly problems: readonly BlockProblem[];
}

/**
 * Compiles the project with the workspace's TypeScript and returns every diagnostic as `tsc
 * --pretty false` prints it. Through the compiler API, not the `tsc` binary: `tsc` stops after
 * syntax errors, so one block that does not parse would hide every other block's type errors;
 * here each file's syntactic and semantic diagnostics are both collected. JavaScript is emitted
 * whatever the errors (run blocks that compiled cleanly are run from it).
 */
function compile(project: string, files: readonly string[], skipLibCheck: boolean): string {
  if (files.length === 0) return '';
  const config = ts.parseJsonConfigFileContent(
    { compilerOptions: { ...DOCS_COMPILER_OPTIONS, skipLibCheck }, files },
    ts.sys,
    project,
  );
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const diagnostics: ts.Diagnostic[] = [
    ...config.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
  ];
  for (const file of program.getSourceFiles()) {
    const syntactic = program.getSyntacticDiagnostics(file);
    diagnostics.push(...syntactic);
    if (syntactic.length === 0) diagnostics.push(...program.getSemanticDiagnostics(file));
  }
  program.emit();
  return diagnostics
    .filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error)
    .map((diagnostic) => {
      const message = `error TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ')}`;
      if (diagnostic.file === undefined || diagnostic.start === undefined) return message;
      const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      const path = relative(project, diagnostic.file.fileName).split('\\').join('/');
      return `${path}(${line + 1},${character + 1}): ${message}`;
    })
    .join('\n');
}

/** Checks every block of the documents under `options.root`; never throws for a bad block. */
export async function checkDocs(options: DocsCheckOptions): Promise<DocsReport> {
  const documents = documentedFiles(options.root);
  const blocks = documents.flatMap((file) =>
    extractBlocks(readFileSync(join(options.root, file), 'utf8'), file),
  );
  const { files, problems: assembly } = assembleBlocks(
    blocks,
    options.templatesDir,
    options.templatesLabel,
  );
  rmSync(join(options.project, 'checks'), { recursive: true, force: true });
  rmSync(join(options.project, 'dist'), { recursive: true, force: true });
  for (const file of files) {
    mkdirSync(dirname(join(options.project, file.path)), { recursive: true });
    writeFileSync(join(options.project, file.path), file.text);
  }
  writeFileSync(
    join(options.project, 'tsconfig.docs.json'),
    `${JSON.stringify({ compilerOptions: DOCS_COMPILER_OPTIONS, include: ['checks/**/*.ts'] }, null, 2)}\n`,
  );
  // Blocks importing a library whose own declarations fail the strict library check are compiled
  // apart with `skipLibCheck` (rt's declarations are still checked by every other block).
  const exempt = files.filter((file) => importsLibCheckExempt(file.text));
  const strict = files.filter((file) => !exempt.includes(file));
  const output = [
    compile(
      options.project,
      strict.map((file) => file.path),
      false,
    ),
    compile(
      options.project,
      exempt.map((file) => file.path),
      true,
    ),
  ]
    .filter((text) => text.length > 0)
    .join('\n');
  const compiled = files.length > 0 ? problemsOf(output, files) : [];
  const problems: BlockProblem[] = [...assembly, ...compiled];
  const failed = new Set(compiled.map((problem) => problem.where.split(':').slice(0, 2).join(':')));
  let ran = 0;
  for (const file of files) {
    if (file.block.kind !== 'run') continue;
    const where = `${file.block.file}:${file.block.line}`;
    const blockLines = Array.from(
      { length: file.lines },
      (_, i) => `${file.block.file}:${file.block.line + i}`,
    );
    if (blockLines.some((line) => failed.has(line))) {
      problems.push({ where, message: 'not run: it does not compile (see above)' });
      continue;
    }
    ran += 1;
    try {
      await runQuickStart(
        options.project,
        join('dist', file.path.replace(/\.ts$/, '.js')),
        platformsOf(file.block.code),
        discordCommandOf(file.block.code),
      );
    } catch (error) {
      problems.push({ where, message: `ts run: ${(error as Error).message}` });
    }
  }
  return { blocks, checked: files.length, ran, problems: inDocumentOrder(problems, documents) };
}

/** `problems` by document (in `documents` order), then line; the rest (dependencies, tsc) last. */
function inDocumentOrder(
  problems: readonly BlockProblem[],
  documents: readonly string[],
): BlockProblem[] {
  const rank = (problem: BlockProblem): [number, number] => {
    const [file = '', line = '0'] = problem.where.split(':');
    const index = documents.indexOf(file);
    return [index < 0 ? documents.length : index, Number(line)];
  };
  return problems
    .map((problem, order) => ({ problem, order, rank: rank(problem) }))
    .sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1] || a.order - b.order)
    .map(({ problem }) => problem);
}

/** The report as one line per problem, `file:line: message`, in document order. */
export function formatProblems(problems: readonly BlockProblem[]): string {
  return problems.map((problem) => `${problem.where}: ${problem.message}`).join('\n');
}
