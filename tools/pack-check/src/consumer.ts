/**
 * The consumer side of the pack check: a fresh npm project outside the workspace that installs
 * tarballs, then type-checks, compiles and runs the fixture bot with the workspace's TypeScript.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './run.js';

const FIXTURE_DIR = fileURLToPath(new URL('../fixture/', import.meta.url));
/** `tsc` of the workspace's `typescript` (this package's devDependency). */
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/**
 * The environment for npm: no update notifier, no funding or audit chatter, and nothing inherited
 * from the pnpm process running the test (`npm_config_*` set by pnpm would confuse npm).
 */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith('npm_')) env[key] = value;
  }
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false' };
}

/** Creates `dir` as an ESM npm project and installs `tarballs` plus Node's type definitions. */
export async function createConsumerProject(
  dir: string,
  tarballs: readonly string[],
): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'rt-pack-check-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, '@types/node@^20'],
    { cwd: dir, env: npmEnv() },
  );
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
