import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { run } from './run.js';
import { WORKSPACE_ROOT } from './workspace.js';

/**
 * A fresh clone's `pnpm install` prints nothing to act on: every dependency with an install script
 * is settled in `pnpm-workspace.yaml` (allowed or ignored, with the reason), so no "Ignored build
 * scripts" warning. Installing needs only the manifests, the lockfile and the workspace file, so
 * the test copies those (tracked by git) into an empty directory and installs from pnpm's store.
 */
const tmp = mkdtempSync(join(tmpdir(), 'rt-quiet-install-'));

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

it('pnpm install on a fresh clone prints no warning (no ignored build scripts)', async () => {
  const { stdout: tracked } = await run('git', ['ls-files'], { cwd: WORKSPACE_ROOT });
  const manifests = tracked
    .split('\n')
    .filter((file) => file === 'package.json' || file.endsWith('/package.json'))
    .filter((file) => !file.includes('node_modules/'));
  for (const file of [...manifests, 'pnpm-lock.yaml', 'pnpm-workspace.yaml']) {
    cpSync(join(WORKSPACE_ROOT, file), join(tmp, file), { recursive: true });
  }
  expect(manifests.map((file) => dirname(file))).toContain('packages/core');

  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', FORCE_COLOR: '0' };
  for (const key of Object.keys(env)) if (key.toLowerCase().startsWith('npm_')) delete env[key];
  const { stdout, stderr } = await run(
    'pnpm',
    ['install', '--frozen-lockfile', '--prefer-offline', '--ignore-scripts=false'],
    { cwd: tmp, env },
  );
  const output = `${stdout}\n${stderr}`;
  expect(output).not.toMatch(/Ignored build scripts/i);
  expect(output).not.toMatch(/\bWARN\b|Warning/);
});
