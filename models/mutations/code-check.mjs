#!/usr/bin/env node
/**
 * The code mutation check: for each entry of code.txt, runs the entry's test files under vitest
 * with RT_CODE_MUTATION set (the models' vitest config applies it in memory; the working tree is
 * never written, so an interrupted run leaves nothing behind) and requires that the mutation was
 * applied and that tests failed: the replay caught it. Two runs at a time (MODELS_JOBS).
 * Prints one line per mutation and exits non-zero when any survived or could not be applied.
 *
 *   node mutations/code-check.mjs [name...]     (from models/)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMutations } from './apply.mjs';

const models = join(dirname(fileURLToPath(import.meta.url)), '..');
const entries = parseMutations(readFileSync(join(models, 'mutations/code.txt'), 'utf8'));
const wanted = process.argv.slice(2);
const selected = wanted.length ? entries.filter((entry) => wanted.includes(entry.name)) : entries;
const jobs = Number(process.env.MODELS_JOBS ?? 2);
const vitest = [
  join(models, 'node_modules/.bin/vitest'),
  join(models, '../node_modules/.bin/vitest'),
].find((path) => existsSync(path));
if (vitest === undefined) throw new Error('vitest is not installed: run pnpm install');
const marks = mkdtempSync(join(tmpdir(), 'rt-code-mutations-'));
const children = new Set();
const cleanup = () => {
  for (const child of children) child.kill('SIGTERM');
  rmSync(marks, { recursive: true, force: true });
};
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanup();
    process.exit(130);
  });
}

/** Runs one mutation; resolves its result line and whether it was caught. */
function run(entry) {
  const mark = join(marks, entry.name);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(vitest, ['run', ...(entry.config ?? '').split(/\s+/).filter(Boolean)], {
      cwd: models,
      env: {
        ...process.env,
        RT_CODE_MUTATION: entry.name,
        RT_MUTATION_MARK: mark,
        CI: 'true',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      children.delete(child);
      const secs = ((Date.now() - started) / 1000).toFixed(0);
      const plain = output
        .split(String.fromCharCode(27))
        .map((part, at) => (at === 0 ? part : part.replace(/^\[[0-9;]*m/, '')))
        .join('');
      const failedTests = /Tests\s+(\d+) failed/.exec(plain)?.[1];
      let applied = false;
      try {
        applied = readFileSync(mark, 'utf8') === entry.name;
      } catch {}
      if (!applied) {
        resolve({
          ok: false,
          line: `FAIL ${entry.name}: never applied (${entry.target} not loaded)`,
        });
      } else if (code === 0) {
        resolve({ ok: false, line: `FAIL ${entry.name}: survived (${entry.why})` });
      } else if (failedTests === undefined) {
        const tail = plain.trim().split('\n').slice(-5).join(' | ');
        resolve({
          ok: false,
          line: `FAIL ${entry.name}: vitest failed without failing tests: ${tail}`,
        });
      } else {
        resolve({
          ok: true,
          line: `ok   ${entry.name.padEnd(38)} caught: ${failedTests} tests failed (${secs} s): ${entry.expect}`,
        });
      }
    });
  });
}

const started = Date.now();
const results = new Array(selected.length);
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(jobs, selected.length) }, async () => {
    while (next < selected.length) {
      const index = next++;
      results[index] = await run(selected[index]);
    }
  }),
);
for (const result of results) console.log(result.line);
const caught = results.filter((result) => result.ok).length;
console.log(
  `code mutations: ${caught} caught, ${results.length - caught} not (${((Date.now() - started) / 1000).toFixed(0)} s, ${jobs} at a time)`,
);
process.exitCode = caught === results.length ? 0 : 1;
