#!/usr/bin/env node
/**
 * Runs the `test` script of every workspace project and prints each project's output whole when
 * it finishes (prefixed with its name), then a table of how long each took. Every project runs
 * even when one fails; the exit code is non-zero if any failed.
 *
 *   node scripts/test-all.mjs [project-dir...]     (from the repository root; `pnpm test` runs it)
 *
 * The CI machine has 2 cores, and most suites spend much of their time waiting (on real servers,
 * child processes, deadlines), so:
 * - the model checks (`BACKGROUND`: Spin's exhaustive searches, pure CPU with no deadline) start
 *   at once under `nice`, outside the count, and take whatever CPU the others leave idle;
 * - every other project runs `RT_TEST_JOBS` at a time (default 2) at normal priority, the longest
 *   first (measured, seconds of a quiet run), so the suites that hold real deadlines (the
 *   reliability suite, the demo, the examples' process tests) never wait behind a Spin search.
 * Why not `turbo run test`: turbo starts independent tasks in no particular order and knows no
 * priorities; a long suite started last runs alone on one core while the other idles.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Started at once under `nice -n 10`, outside `RT_TEST_JOBS`: CPU-bound, no deadlines. */
const BACKGROUND = ['models'];

/** The others, longest first; projects not named here run after them, by directory. */
const LONGEST_FIRST = [
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
function runOne(dir, { nice = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    // bash's `times` prints, once the tests exit, the CPU seconds they used (all descendants).
    const script = 'pnpm run test; code=$?; times >&3; exit $code';
    const [command, args] = nice
      ? ['nice', ['-n', '10', 'bash', '-c', script]]
      : ['bash', ['-c', script]];
    const child = spawn(command, args, {
      cwd: join(root, dir),
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const chunks = [];
    let times = '';
    child.stdio[3].on('data', (chunk) => {
      times += chunk;
    });
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
      resolve({ dir, ok, seconds, cpu: cpuSeconds(times) });
    });
  });
}

/** The children's user + system seconds from bash's `times` (its second line), or NaN. */
function cpuSeconds(times) {
  const line = times.trim().split('\n')[1] ?? '';
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)];
  if (parts.length !== 2) return Number.NaN;
  return parts.reduce((sum, [, minutes, secs]) => sum + Number(minutes) * 60 + Number(secs), 0);
}

const wanted = process.argv.slice(2);
const selected = wanted.length > 0 ? wanted : projects();
const background = selected.filter((dir) => BACKGROUND.includes(dir));
const queue = ordered(selected.filter((dir) => !BACKGROUND.includes(dir)));
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by this script, not by a turbo task
const jobs = Math.max(1, Number(process.env.RT_TEST_JOBS ?? 2) || 2);
const started = Date.now();
const results = [];
process.stdout.write(
  `test-all: ${selected.length} projects: ${background.join(', ') || 'none'} in the background (nice), the others ${jobs} at a time\n`,
);

async function lane() {
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    process.stdout.write(`test-all: start ${dir}\n`);
    results.push(await runOne(dir));
  }
}
const backgroundRuns = background.map((dir) => {
  process.stdout.write(`test-all: start ${dir} (background, nice)\n`);
  return runOne(dir, { nice: true }).then((result) => results.push(result));
});
await Promise.all([...Array.from({ length: jobs }, lane), ...backgroundRuns]);

const failed = results.filter((result) => !result.ok);
process.stdout.write('\ntest-all: seconds per project (wall, CPU)\n');
for (const result of [...results].sort((a, b) => b.seconds - a.seconds)) {
  process.stdout.write(
    `  ${result.ok ? 'ok  ' : 'FAIL'} ${result.seconds.toFixed(1).padStart(6)} ${result.cpu.toFixed(1).padStart(6)}  ${result.dir}\n`,
  );
}
const timed = results.filter((result) => Number.isFinite(result.cpu));
const cpu = timed.reduce((sum, result) => sum + result.cpu, 0);
process.stdout.write(
  `test-all: ${cpu.toFixed(0)} CPU seconds in all${timed.length < results.length ? ` (${results.length - timed.length} projects untimed)` : ''}\n`,
);
process.stdout.write(
  `test-all: ${results.length - failed.length} of ${results.length} passed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
process.exit(failed.length === 0 ? 0 : 1);
