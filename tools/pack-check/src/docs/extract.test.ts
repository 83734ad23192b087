import { describe, expect, it } from 'vitest';
import { extractBlocks } from './extract.js';

const doc = (...lines: string[]) => lines.join('\n');

describe('extractBlocks', () => {
  it('classifies each marker and reports the line of the first code line', () => {
    const blocks = extractBlocks(
      doc(
        '# Title',
        '```ts',
        'const a = 1;',
        '```',
        '```ts run',
        'const b = 2;',
        '```',
        '```typescript fragment=redis-state',
        'const c = 3;',
        '```',
        '```ts nocheck',
        'interface D {}',
        '```',
      ),
      'README.md',
    );
    expect(
      blocks.map(({ line, kind, fragment, code }) => ({ line, kind, fragment, code })),
    ).toEqual([
      { line: 3, kind: 'program', fragment: undefined, code: 'const a = 1;\n' },
      { line: 6, kind: 'run', fragment: undefined, code: 'const b = 2;\n' },
      { line: 9, kind: 'fragment', fragment: 'redis-state', code: 'const c = 3;\n' },
      { line: 12, kind: 'nocheck', fragment: undefined, code: 'interface D {}\n' },
    ]);
    expect(blocks.every((block) => block.file === 'README.md')).toBe(true);
  });

  it('ignores other languages, and TypeScript inside them', () => {
    const blocks = extractBlocks(
      doc(
        '```sh',
        'npm i @rt/core',
        '```',
        '````md',
        '```ts',
        'inside',
        '```',
        '````',
        '```json',
        '{}',
        '```',
      ),
      'x.md',
    );
    expect(blocks).toEqual([]);
  });

  it('reports an unknown marker as invalid instead of skipping the block', () => {
    const infos = ['ts runn', 'ts fragment=', 'ts fragment = x', 'ts run nocheck', 'TS  Run'];
    const blocks = infos.flatMap((info) => extractBlocks(doc(`\`\`\`${info}`, 'x', '```'), 'a.md'));
    expect(blocks.map((block) => block.kind)).toEqual([
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
    ]);
    expect(blocks[0]?.problem).toMatch(/unknown marker "runn"/);
  });

  it('closes a fence only at a line of at least as many of the same characters', () => {
    const blocks = extractBlocks(
      doc('~~~~ts', '```', 'const inner = "```";', '~~~', '~~~~', 'after'),
      'a.md',
    );
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.code).toBe('```\nconst inner = "```";\n~~~\n');
  });

  it('strips the indentation of a fence inside a list item', () => {
    const blocks = extractBlocks(
      doc('1. Step:', '   ```ts', '   const x = 1;', '     nested();', '   ```'),
      'a.md',
    );
    expect(blocks[0]?.code).toBe('const x = 1;\n  nested();\n');
    expect(blocks[0]?.line).toBe(3);
  });

  it('reports a fence that is never closed', () => {
    const [block] = extractBlocks(doc('```ts', 'const x = 1;'), 'a.md');
    expect(block).toMatchObject({ kind: 'invalid', problem: 'the fence is never closed' });
  });

  it('reads CRLF documents with the same lines', () => {
    const [block] = extractBlocks('text\r\n```ts\r\nconst x = 1;\r\n```\r\n', 'a.md');
    expect(block).toMatchObject({ line: 3, kind: 'program', code: 'const x = 1;\n' });
  });
});
