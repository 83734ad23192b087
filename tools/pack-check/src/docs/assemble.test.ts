import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assembleBlocks, parseDiagnostics, problemsOf } from './assemble.js';
import { extractBlocks } from './extract.js';

const templates = mkdtempSync(join(tmpdir(), 'rt-snippet-templates-'));
writeFileSync(
  join(templates, 'redis.ts'),
  'import { a } from "a";\nconst s = a();\n/* fragment */\ns.close();\n',
);
writeFileSync(join(templates, 'nomarker.ts'), 'export {};\n');
afterAll(() => {
  rmSync(templates, { recursive: true, force: true });
});

const markdown = [
  '# Doc', //                         1
  '```ts', //                         2
  'const x: number = "one";', //      3
  '```', //                           4
  '```ts fragment=redis', //          5
  'line1();', //                      6
  'line2();', //                      7
  '```', //                           8
  '```ts fragment=absent', //         9
  'x();', //                          10
  '```', //                           11
  '```ts fragment=nomarker', //       12
  'y();', //                          13
  '```', //                           14
  '```ts nocheck', //                 15
  'interface Z {}', //                16
  '```', //                           17
].join('\n');

describe('assembleBlocks and problemsOf', () => {
  const blocks = extractBlocks(markdown, 'packages/core/README.md');
  const { files, problems } = assembleBlocks(blocks, templates, 'snippets');

  it('makes one file per checked block, a fragment inside its template at the marker line', () => {
    expect(files.map((file) => file.path)).toEqual([
      'checks/packages-core-README.md.L3.ts',
      'checks/packages-core-README.md.L6.ts',
    ]);
    expect(files[1]?.text).toBe(
      'import { a } from "a";\nconst s = a();\nline1();\nline2();\ns.close();\n',
    );
    expect(files[1]).toMatchObject({ offset: 2, lines: 2, template: 'snippets/redis.ts' });
  });

  it('reports a missing template and a template without the marker at the block', () => {
    expect(problems).toEqual([
      {
        where: 'packages/core/README.md:10',
        message: 'fragment=absent: snippets/absent.ts does not exist',
      },
      {
        where: 'packages/core/README.md:13',
        message: 'fragment=nomarker: snippets/nomarker.ts has no line "/* fragment */"',
      },
    ]);
  });

  it('maps diagnostics to the document line, or to the template line around a fragment', () => {
    const output = [
      "checks/packages-core-README.md.L3.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "checks/packages-core-README.md.L6.ts(4,1): error TS2304: Cannot find name 'line2'.",
      "checks/packages-core-README.md.L6.ts(5,3): error TS2339: Property 'close' does not exist on type 'S'.",
      "checks/packages-core-README.md.L6.ts(1,19): error TS2307: Cannot find module 'a'.",
      "node_modules/@sapphire/shapeshift/dist/index.d.ts(12,3): error TS2305: Module '\"util\"' has no exported member 'InspectOptionsStylized'.",
      '  A continuation line.',
    ].join('\n');
    expect(problemsOf(output, files)).toEqual([
      {
        where: 'packages/core/README.md:3:7',
        message: "error TS2322: Type 'string' is not assignable to type 'number'.",
      },
      { where: 'packages/core/README.md:7:1', message: "error TS2304: Cannot find name 'line2'." },
      {
        where: 'snippets/redis.ts:4',
        message:
          "error TS2339: Property 'close' does not exist on type 'S'. (in the template of packages/core/README.md:6)",
      },
      {
        where: 'snippets/redis.ts:1',
        message:
          "error TS2307: Cannot find module 'a'. (in the template of packages/core/README.md:6)",
      },
      {
        where: 'node_modules/@sapphire/shapeshift/dist/index.d.ts:12',
        message:
          "error TS2305: Module '\"util\"' has no exported member 'InspectOptionsStylized'.\n  A continuation line.",
      },
    ]);
  });

  it('keeps output that names no file (a tsconfig error) as a problem of tsc', () => {
    expect(parseDiagnostics("error TS5023: Unknown compiler option 'x'.")).toEqual([
      { file: '', line: 0, column: 0, message: "error TS5023: Unknown compiler option 'x'." },
    ]);
  });
});
