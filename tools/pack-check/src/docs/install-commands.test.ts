import { describe, expect, it } from 'vitest';
import { installFactsOf, packageNameOf, packageOfSpecifier } from './install-commands.js';

const doc = (...lines: string[]) => lines.join('\n');

describe('packageNameOf and packageOfSpecifier', () => {
  it('reads the package a spec installs, with or without a range', () => {
    expect(
      ['@rt/core', '@rt/core@^0.1', 'ai@7', 'ioredis', 'x@npm:y@1'].map(packageNameOf),
    ).toEqual(['@rt/core', '@rt/core', 'ai', 'ioredis', 'x']);
  });

  it('gives no name for a path, URL or git spec', () => {
    expect(['./rt-core.tgz', 'https://x/y.tgz', 'github:a/b'].map(packageNameOf)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('reads the package of a subpath import', () => {
    expect(['@rt/testing/slack', 'ai/test', 'vitest'].map(packageOfSpecifier)).toEqual([
      '@rt/testing',
      'ai',
      'vitest',
    ]);
  });
});

describe('installFactsOf', () => {
  it('reads npm i, npm install and pnpm add commands of shell blocks at their lines', () => {
    const { commands } = installFactsOf(
      doc(
        '# Doc', //                                          1
        '```sh', //                                          2
        'npm i @rt/core', //                                 3
        '$ npm install --save-dev @rt/testing  # tests', //  4
        'pnpm add -D \\', //                                 5
        '  vitest', //                                       6
        'pnpm install && npm install && npm test', //        7
        'cd app && npm install ioredis', //                  8
        '```', //                                            9
        '```bash', //                                        10
        'npm add ai@7', //                                   11
        '```', //                                            12
        '```text', //                                        13
        'npm install not-a-command', //                      14
        '```', //                                            15
      ),
      'README.md',
    );
    expect(
      commands.map(({ line, tool, flags, specs, text }) => ({ line, tool, flags, specs, text })),
    ).toEqual([
      { line: 3, tool: 'npm', flags: [], specs: ['@rt/core'], text: 'npm i @rt/core' },
      {
        line: 4,
        tool: 'npm',
        flags: ['--save-dev'],
        specs: ['@rt/testing'],
        text: 'npm install --save-dev @rt/testing',
      },
      { line: 5, tool: 'pnpm', flags: ['-D'], specs: ['vitest'], text: 'pnpm add -D vitest' },
      { line: 8, tool: 'npm', flags: [], specs: ['ioredis'], text: 'npm install ioredis' },
      { line: 11, tool: 'npm', flags: [], specs: ['ai@7'], text: 'npm add ai@7' },
    ]);
  });

  it('reads brings markers and README install links outside fences only', () => {
    const facts = installFactsOf(
      doc(
        '<!-- brings: vitest  @types/node -->', //                  1
        'As [the README](../packages/core/README.md#install) says,', // 2
        'and [twice](../packages/core/README.md#install),', //       3
        'not [this](../packages/otel/README.md#options).', //        4
        '```md', //                                                  5
        '<!-- brings: hidden -->', //                                6
        '[x](../packages/testing/README.md#install)', //             7
        '```', //                                                    8
        '[y](./sub/../../examples/bot/README.md#install)', //        9
      ),
      'docs/page.md',
    );
    expect(facts.brings).toEqual(['vitest', '@types/node']);
    expect(facts.bases).toEqual([
      { readme: 'packages/core/README.md', line: 2 },
      { readme: 'examples/bot/README.md', line: 9 },
    ]);
    expect(facts.commands).toEqual([]);
  });
});
