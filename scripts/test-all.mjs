#!/usr/bin/env node
/**
 * Runs the `test` script of every workspace project, `RT_TEST_JOBS` at a time (default 2, one
 * per core of the CI machine), the longest first so the two lanes end together, and prints each
 * project's output whole when it finishes (prefixed with its name), then a table of how long each
 * took. Every project runs even when one fails; the exit code is non-zero if any failed.
 *
 *   node scripts/test-all.mjs [project-dir...]     (from the repository root; `pnpm test` runs it)
 *
 * Why not `turbo run test`: turbo starts independent tasks in no particular order, and a long
 * suite started last runs alone on one core while the other idles. The order below is measured
 * (seconds of a quiet run on 2 cores); projects it does not name run after it, by directory.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Longest first. The CPU-bound suites that are not timing-sensitive (Spin, the pack check's
 * installs and compilations) start first, so the suites that hold real deadlines (the reliability
 * suite, the demo) later share the machine with lighter ones.
 */
const LONGEST_FIRST = [
  'models',
  'tools/pack-check',
  'tools/reliability',
  'examples/demo',
  'packages/adapter-slack',
  'packages/state-redis',
  'packages/core',
  'packages/adapter-discord',
  'tools/bench',
  'packages/slack-installs',
];

/** Every workspace directory (`packages/*`, `examples/*`, `tools/*`, `models`) with a test script. */
function projects() {
  const dirs = ['packages', 'examples', 'tools'].flatMap((group) =>
    readdirSync(join(root, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${group}/${entry.name}`),
  );
  dirs.push('models');
  return dirs.filter((dir) => {
    const manifest = join(root, dir, 'package.json');
    if (!existsSync(manifest)) return false;
    return typeof JSON.parse(readFileSync(manifest, 'utf8')).scripts?.test === 'string';
  });
}

function ordered(all) {
  const rank = (dir) => {
    const at = LONGEST_FIRST.indexOf(dir);
    return at === -1 ? LONGEST_FIRST.length : at;
  };
  return [...all].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Runs one project's tests; resolves its result once it exits, its output kept whole. */
function runOne(dir) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('pnpm', ['run', 'test'], {
      cwd: join(root, dir),
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.stack ?? error}\n`)));
    child.on('close', (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      const name = dir.split('/').pop();
      const output = Buffer.concat(chunks).toString('utf8').replace(/\n$/, '');
      const prefixed = output
        .split('\n')
        .map((line) => `${name}:test: ${line}`)
        .join('\n');
      process.stdout.write(`\n${prefixed}\n`);
      const ok = code === 0;
      process.stdout.write(
        `${name}:test: ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds.toFixed(1)} s\n`,
      );
      resolve({ dir, ok, seconds });
    });
  });
}

const wanted = process.argv.slice(2);
const queue = ordered(wanted.length > 0 ? wanted : projects());
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by this script, not by a turbo task
const jobs = Math.max(1, Number(process.env.RT_TEST_JOBS ?? 2) || 2);
const started = Date.now();
const results = [];
process.stdout.write(`test-all: ${queue.length} projects, ${jobs} at a time\n`);

async function lane() {
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    process.stdout.write(`test-all: start ${dir}\n`);
    results.push(await runOne(dir));
  }
}
await Promise.all(Array.from({ length: jobs }, lane));

const failed = results.filter((result) => !result.ok);
process.stdout.write('\ntest-all: seconds per project\n');
for (const result of [...results].sort((a, b) => b.seconds - a.seconds)) {
  process.stdout.write(
    `  ${result.ok ? 'ok  ' : 'FAIL'} ${result.seconds.toFixed(1).padStart(6)}  ${result.dir}\n`,
  );
}
process.stdout.write(
  `test-all: ${results.length - failed.length} of ${results.length} passed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
process.exit(failed.length === 0 ? 0 : 1);
