/**
 * The consumer side of the pack check: a fresh npm project outside the workspace that installs
 * tarballs, then type-checks, compiles and runs the fixture bot with the workspace's TypeScript.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type NpmLsNode, versionsIn } from './installed-versions.js';
import { run } from './run.js';

const FIXTURE_DIR = fileURLToPath(new URL('../fixture/', import.meta.url));
/** `tsc` of the workspace's `typescript` (this package's devDependency). */
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/**
 * The environment for npm: no update notifier, no funding or audit chatter, and nothing inherited
 * from the pnpm process running the test (`npm_config_*` set by pnpm would confuse npm).
 */
export function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith('npm_')) env[key] = value;
  }
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false' };
}

/** `npm install` with quiet flags, in `dir`. */
function npmInstall(dir: string, specs: readonly string[]): Promise<unknown> {
  return run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
    cwd: dir,
    env: npmEnv(),
  });
}

/**
 * Creates `dir` as an ESM npm project and installs `tarballs` plus `extra` (default Node's type
 * definitions, `@types/node@^20`), then runs `npm install` once more: a project the install left
 * in a state npm refuses (an overridden peer range, `ERESOLVE`) fails here.
 */
export async function createConsumerProject(
  dir: string,
  tarballs: readonly string[],
  extra: readonly string[] = ['@types/node@^20'],
): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'rt-pack-check-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  await npmInstall(dir, [...tarballs, ...extra]);
  await npmInstall(dir, []);
}

/** The version npm's registry calls latest for `name` (`npm view NAME version`). */
export async function latestVersion(name: string): Promise<string> {
  const { stdout } = await run('npm', ['view', name, 'version'], {
    cwd: FIXTURE_DIR,
    env: npmEnv(),
  });
  return stdout.trim();
}

/** The distinct versions of `name` installed in the npm project at `dir` (`npm ls`), sorted. */
export async function installedVersions(dir: string, name: string): Promise<string[]> {
  const { stdout } = await run('npm', ['ls', name, '--all', '--json'], { cwd: dir, env: npmEnv() });
  return versionsIn(JSON.parse(stdout) as NpmLsNode, name);
}

/**
 * Copies a fixture bot in (`fixture`, default the Slack `bot.ts`) as `bot.ts`, compiles it with
 * strict NodeNext settings and runs it; resolves stdout.
 */
export async function compileAndRunBot(dir: string, fixture = 'bot.ts'): Promise<string> {
  copyFileSync(join(FIXTURE_DIR, fixture), join(dir, 'bot.ts'));
  copyFileSync(join(FIXTURE_DIR, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir });
  const { stdout } = await run(process.execPath, ['dist/bot.js'], { cwd: dir, timeoutMs: 60_000 });
  return stdout;
}
