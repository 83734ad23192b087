import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { run } from './run.js';
import { WORKSPACE_ROOT } from './workspace.js';

/** The TypeScript files under `path` (a file or a folder), as `tsc`'s `include` reads it. */
function typescriptFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(m|c)?tsx?$/.test(file) && !file.includes('node_modules'))
    .map((file) => join(path, file));
}

/**
 * `pnpm typecheck` checks every package, example and tool in one program
 * (`tsconfig.typecheck.json`), so each source file is checked once. A project whose files that
 * program leaves out would go unchecked in CI: every TypeScript file a workspace project's own
 * `tsconfig.json` includes must be in the root program.
 */
it('the root typecheck program includes every file of every workspace project', async () => {
  const { stdout: tracked } = await run('git', ['ls-files', '*tsconfig.json'], {
    cwd: WORKSPACE_ROOT,
  });
  const projects = tracked
    .split('\n')
    .filter((file) => file !== '' && !file.includes('/fixture/') && file.includes('/'));
  expect(projects).toContain('packages/core/tsconfig.json');
  const own = projects.flatMap((project) => {
    const config = JSON.parse(readFileSync(join(WORKSPACE_ROOT, project), 'utf8')) as {
      include?: string[];
    };
    expect(config.include, project).toBeDefined();
    return config.include!.flatMap((entry) =>
      typescriptFiles(join(WORKSPACE_ROOT, dirname(project), entry)),
    );
  });
  expect(own).toContain(join(WORKSPACE_ROOT, 'packages/core/src/index.ts'));

  const tsc = join(WORKSPACE_ROOT, 'node_modules/.bin/tsc');
  const { stdout } = await run(tsc, ['-p', 'tsconfig.typecheck.json', '--listFilesOnly'], {
    cwd: WORKSPACE_ROOT,
  });
  const root = new Set(stdout.split('\n').map((line) => line.trim()));
  expect(own.filter((file) => !root.has(file))).toEqual([]);
});
