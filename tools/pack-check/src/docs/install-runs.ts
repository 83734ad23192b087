/**
 * The install run: each plan (`install-plans.ts`) in its own fresh npm project outside the
 * workspace, its commands as written except that `@rt/*` names install the packed tarballs
 * (third-party specs come from the registry exactly as written), each followed by a second `npm
 * install`. A step fails when npm fails or prints an `ERESOLVE` or peer dependency warning (npm
 * installs over a conflicting peer with only a warning, and the next install refuses the tree).
 * Plans run two at a time, sharing npm's cache.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { npmEnv } from '../consumer.js';
import { run } from '../run.js';
import type { BlockProblem } from './assemble.js';
import { type InstallCommand, packageNameOf } from './install-commands.js';
import type { InstallPlan } from './install-plans.js';

/** `pnpm add` options and the `npm install` options that do the same. */
const PNPM_FLAGS: Readonly<Record<string, string>> = Object.freeze({
  '-D': '--save-dev',
  '--save-dev': '--save-dev',
  '-P': '--save-prod',
  '--save-prod': '--save-prod',
  '-O': '--save-optional',
  '--save-optional': '--save-optional',
  '-E': '--save-exact',
  '--save-exact': '--save-exact',
});
/** Options that would install outside the fresh project. */
const REFUSED_FLAGS = new Set(['-g', '--global', '--location=global', '--prefix']);

/** The `npm install` arguments of a command, or why it cannot be run. */
export function npmArgumentsOf(
  command: InstallCommand,
  tarballs: ReadonlyMap<string, string>,
): { readonly args: readonly string[] } | { readonly problem: string } {
  const flags: string[] = [];
  for (const flag of command.flags) {
    const mapped = command.tool === 'pnpm' ? PNPM_FLAGS[flag] : flag;
    if (mapped === undefined || REFUSED_FLAGS.has(flag.split('=')[0] as string)) {
      return { problem: `${command.text}: the install run does not run option ${flag}` };
    }
    flags.push(mapped);
  }
  const specs: string[] = [];
  for (const spec of command.specs) {
    const name = packageNameOf(spec);
    if (name === undefined || !name.startsWith('@rt/')) {
      specs.push(spec);
      continue;
    }
    const tarball = tarballs.get(name);
    if (tarball === undefined) return { problem: `${command.text}: no tarball of ${name}` };
    specs.push(tarball);
  }
  return { args: [...flags, ...specs] };
}

const NPM_LINE = /^npm (?:warn|WARN|error|ERR!) /;
/** The unindented lines of npm's report of one conflict (what, what was found, what it needs). */
const CONFLICT_SUMMARY =
  /^npm (?:warn|WARN|error|ERR!) (?:ERESOLVE|While resolving|Found|Could not resolve|Conflicting peer|peer )/;

/**
 * What npm's output says about `ERESOLVE` or peer dependency conflicts: none when it says nothing,
 * else the summary lines of each conflict (deduplicated, in order).
 */
export function peerWarnings(output: string): string[] {
  const lines = output.split('\n').filter((line) => NPM_LINE.test(line));
  if (!lines.some((line) => /\bERESOLVE\b|\bpeer\b/i.test(line))) return [];
  const summary = [...new Set(lines.filter((line) => CONFLICT_SUMMARY.test(line)))];
  return summary.length > 0 ? summary : lines.filter((line) => /\bERESOLVE\b|\bpeer\b/i.test(line));
}

/** Options of `runInstallPlans`. */
export interface InstallRunOptions {
  /** An empty directory outside the workspace; plan N installs into `dir/N`. */
  readonly dir: string;
  /** Tarball path by package name (`@rt/core` to `.../rt-core-0.1.0.tgz`). */
  readonly tarballs: ReadonlyMap<string, string>;
  /** Plans run at once (default 2). */
  readonly concurrency?: number;
}

/** `npm install ARGS` in `project`; resolves what went wrong, if anything. */
async function npmInstall(project: string, args: readonly string[]): Promise<string | undefined> {
  try {
    const { stdout, stderr } = await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=warn', ...args],
      { cwd: project, env: npmEnv(), timeoutMs: 300_000 },
    );
    const warnings = peerWarnings(`${stdout}\n${stderr}`);
    return warnings.length > 0 ? warnings.join('\n  ') : undefined;
  } catch (error) {
    const text = (error as Error).message;
    const resolve = peerWarnings(text);
    return resolve.length > 0 ? resolve.join('\n  ') : text.split('\n').slice(-12).join('\n  ');
  }
}

/** Runs one plan in `project`; resolves its problems (none when every step installed cleanly). */
async function runPlan(
  plan: InstallPlan,
  project: string,
  tarballs: ReadonlyMap<string, string>,
): Promise<BlockProblem[]> {
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'rt-install-check', private: true, type: 'module' }, null, 2)}\n`,
  );
  const context = `in the project of ${plan.documents.join(', ')}`;
  for (const step of plan.steps) {
    const where = `${step.file}:${step.line}`;
    const argv = npmArgumentsOf(step, tarballs);
    if ('problem' in argv) return [{ where, message: argv.problem }];
    const first = await npmInstall(project, argv.args);
    if (first !== undefined) return [{ where, message: `${step.text} (${context}):\n  ${first}` }];
    const again = await npmInstall(project, []);
    if (again !== undefined) {
      return [{ where, message: `npm install after ${step.text} (${context}):\n  ${again}` }];
    }
  }
  return [];
}

/**
 * Runs every plan, `concurrency` at a time; resolves one problem per failing plan (at the line of
 * the step that failed, naming the documents of the plan), in plan order. Never rejects for a
 * failing install.
 */
export async function runInstallPlans(
  plans: readonly InstallPlan[],
  options: InstallRunOptions,
): Promise<BlockProblem[]> {
  const results: BlockProblem[][] = plans.map(() => []);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < plans.length) {
      const index = next;
      next += 1;
      results[index] = await runPlan(
        plans[index] as InstallPlan,
        join(options.dir, String(index)),
        options.tarballs,
      );
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 2, plans.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results.flat();
}
