/**
 * Which install commands the install run runs, and in what project. A reader follows a document
 * from the top: its first install command goes into an empty project, each later one into the
 * project the earlier ones made (the testing README's `npm install @rt/adapter-discord` adds to its
 * first install), and a page under `docs/` starts from the README(s) it builds on. So each
 * document with install commands gives one plan: the commands of the READMEs it builds on, then
 * its own, in order. Identical plans are run once, and a plan that is the start of another is run
 * as part of that one (every step of a plan is checked, not only the last).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type InstallCommand, type InstallFacts, installFactsOf } from './install-commands.js';
import { documentedFiles } from './sources.js';

/** Commands run one after another in one fresh npm project. */
export interface InstallPlan {
  /** The documents whose install commands this plan runs (each as a reader would). */
  readonly documents: readonly string[];
  readonly steps: readonly InstallCommand[];
}

/** What makes two steps the same install: the tool, the options and the set of specs. */
export function stepKey(command: InstallCommand): string {
  return [command.tool, ...[...command.flags].sort(), '--', ...[...command.specs].sort()].join(' ');
}

/** The steps of `file`: the commands of the READMEs a `docs/` page builds on, then its own. */
function stepsOf(file: string, facts: ReadonlyMap<string, InstallFacts>): InstallCommand[] {
  const own = facts.get(file) as InstallFacts;
  const bases = file.startsWith('docs/') ? own.bases : [];
  return [...bases.flatMap((base) => facts.get(base.readme)?.commands ?? []), ...own.commands];
}

/** Whether the keys of `start` are the first keys of `whole`. */
function startsWith(whole: readonly string[], start: readonly string[]): boolean {
  return start.length <= whole.length && start.every((key, index) => whole[index] === key);
}

/**
 * The plans of the documents under `root` that have install commands, in document order, with
 * identical plans merged and a plan that starts another folded into it.
 */
export function installPlans(root: string): InstallPlan[] {
  const documents = documentedFiles(root);
  const facts = new Map(
    documents.map((file) => [file, installFactsOf(readFileSync(join(root, file), 'utf8'), file)]),
  );
  const candidates = documents
    .filter((file) => (facts.get(file) as InstallFacts).commands.length > 0)
    .map((file) => {
      const steps = stepsOf(file, facts);
      return { file, steps, keys: steps.map(stepKey) };
    });
  const plans: { documents: string[]; steps: InstallCommand[]; keys: string[] }[] = [];
  for (const candidate of candidates) {
    const covering = [...plans, ...candidates.filter((other) => other !== candidate)].find(
      (other) =>
        other.keys.length > candidate.keys.length && startsWith(other.keys, candidate.keys),
    );
    const same = plans.find(
      (plan) => plan.keys.length === candidate.keys.length && startsWith(plan.keys, candidate.keys),
    );
    if (covering !== undefined || same !== undefined) continue;
    plans.push({ documents: [], steps: candidate.steps, keys: candidate.keys });
  }
  for (const candidate of candidates) {
    const plan = plans.find((each) => startsWith(each.keys, candidate.keys));
    plan?.documents.push(candidate.file);
  }
  return plans.map(({ documents: covered, steps }) => ({ documents: covered, steps }));
}
