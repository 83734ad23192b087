import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeConfig, type Plugin } from 'vitest/config';
import { sharedConfig } from '../vitest.shared.js';
// @ts-expect-error: a plain ES module without types (also run by node from check scripts).
import { applyMutation, parseMutations } from './mutations/apply.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');

interface Entry {
  readonly name: string;
  readonly target: string;
}

/**
 * With RT_CODE_MUTATION=<name>, applies that entry of mutations/code.txt while vitest loads the
 * code: a TypeScript target is transformed in memory; a Lua script is copied, mutated, to a
 * temporary folder and `scripts.ts` is pointed at the copy. The working tree is never written.
 * With RT_MUTATION_MARK=<file>, writes the file once the mutation was applied (so the runner can
 * tell "caught" from "never loaded").
 */
function codeMutation(name: string): Plugin {
  const entries = parseMutations(readFileSync(join(here, 'mutations/code.txt'), 'utf8')) as Entry[];
  const entry = entries.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(`RT_CODE_MUTATION: no mutation named ${name}`);
  const target = resolve(repo, entry.target);
  let luaCopy: string | undefined;
  if (target.endsWith('.lua')) {
    const dir = mkdtempSync(join(tmpdir(), 'rt-mutant-'));
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    luaCopy = join(dir, basename(target));
    writeFileSync(luaCopy, applyMutation(entry, readFileSync(target, 'utf8')));
  }
  const scriptsModule = resolve(repo, 'packages/state-redis/src/scripts/scripts.ts');
  const mark = () => {
    if (process.env.RT_MUTATION_MARK) writeFileSync(process.env.RT_MUTATION_MARK, name);
  };
  return {
    name: 'rt-code-mutation',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0];
      if (luaCopy === undefined && file === target) {
        mark();
        return applyMutation(entry, code);
      }
      if (luaCopy !== undefined && file === scriptsModule) {
        const reference = `new URL('./${basename(target)}', import.meta.url)`;
        if (!code.includes(reference)) throw new Error(`scripts.ts no longer loads ${reference}`);
        mark();
        return code.replace(reference, `new URL(${JSON.stringify(`file://${luaCopy}`)})`);
      }
      return undefined;
    },
  };
}

const mutation = process.env.RT_CODE_MUTATION;

export default mutation
  ? mergeConfig(sharedConfig, { plugins: [codeMutation(mutation)] })
  : sharedConfig;
