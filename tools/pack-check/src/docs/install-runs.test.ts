import { describe, expect, it } from 'vitest';
import type { InstallCommand } from './install-commands.js';
import { npmArgumentsOf, peerWarnings } from './install-runs.js';

const command = (tool: 'npm' | 'pnpm', flags: string[], specs: string[]): InstallCommand => ({
  file: 'README.md',
  line: 3,
  text: `${tool} install ${[...flags, ...specs].join(' ')}`,
  tool,
  flags,
  specs,
});
const tarballs = new Map([['@rt/core', '/t/rt-core-0.1.0.tgz']]);

describe('npmArgumentsOf', () => {
  it('installs @rt packages from their tarballs and other specs exactly as written', () => {
    expect(npmArgumentsOf(command('npm', ['--save-dev'], ['@rt/core', 'ai@7']), tarballs)).toEqual({
      args: ['--save-dev', '/t/rt-core-0.1.0.tgz', 'ai@7'],
    });
  });

  it('runs pnpm add options as their npm equivalents', () => {
    expect(npmArgumentsOf(command('pnpm', ['-D', '-E'], ['vitest']), tarballs)).toEqual({
      args: ['--save-dev', '--save-exact', 'vitest'],
    });
  });

  it('refuses a global install, an unknown pnpm option and an rt package without a tarball', () => {
    const problems = [
      command('npm', ['-g'], ['@rt/core']),
      command('pnpm', ['--filter'], ['vitest']),
      command('npm', [], ['@rt/nope']),
    ].map((each) => npmArgumentsOf(each, tarballs));
    expect(problems).toEqual([
      { problem: 'npm install -g @rt/core: the install run does not run option -g' },
      { problem: 'pnpm install --filter vitest: the install run does not run option --filter' },
      { problem: 'npm install @rt/nope: no tarball of @rt/nope' },
    ]);
  });
});

describe('peerWarnings', () => {
  it('is empty for an install that printed only other warnings', () => {
    expect(
      peerWarnings('npm warn deprecated inflight@1.0.6: leaks memory\nadded 3 packages\n'),
    ).toEqual([]);
  });

  it('summarises each ERESOLVE conflict npm printed', () => {
    const output = [
      'npm warn ERESOLVE overriding peer dependency',
      'npm warn While resolving: @opentelemetry/core@2.12.0',
      'npm warn Found: @opentelemetry/api@1.10.0',
      'npm warn node_modules/@opentelemetry/api',
      'npm warn   peer @opentelemetry/api@">=1.0.0 <1.11.0" from @opentelemetry/context-async-hooks@3.1.1',
      'npm warn',
      'npm warn Could not resolve dependency:',
      'npm warn peer @opentelemetry/api@">=1.0.0 <1.10.0" from @opentelemetry/core@2.12.0',
      'npm warn Conflicting peer dependency: @opentelemetry/api@1.9.1',
      'npm warn ERESOLVE overriding peer dependency',
      'npm warn Found: @opentelemetry/api@1.10.0',
      'added 12 packages in 3s',
    ].join('\n');
    expect(peerWarnings(output)).toEqual([
      'npm warn ERESOLVE overriding peer dependency',
      'npm warn While resolving: @opentelemetry/core@2.12.0',
      'npm warn Found: @opentelemetry/api@1.10.0',
      'npm warn Could not resolve dependency:',
      'npm warn peer @opentelemetry/api@">=1.0.0 <1.10.0" from @opentelemetry/core@2.12.0',
      'npm warn Conflicting peer dependency: @opentelemetry/api@1.9.1',
    ]);
  });
});
