/**
 * `pnpm --filter @rt/pack-check check-docs [DIR] [--installs]`: builds and packs every package,
 * installs the tarballs into one fresh consumer project (kept under the OS temp directory and
 * printed), checks every fenced TypeScript block of the repository's documents (or of DIR, with
 * DIR/snippets as fragment templates when it exists) and that each document's install commands
 * install what its blocks import, and prints each failure as `file:line: message`. With
 * `--installs`, also runs each install command in a fresh npm project (`install-runs.ts`).
 * Exits 1 when anything fails.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createConsumerProject, latestVersion } from '../consumer.js';
import { buildPackages, PUBLISHED_PACKAGES, packPackage } from '../workspace.js';
import { checkDocs, formatProblems } from './check-docs.js';
import { DOCS_LIBRARIES, REPOSITORY_DOCS, REPOSITORY_TEMPLATES } from './docs-fixtures.js';
import { checkInstallCoverage } from './install-coverage.js';
import { installPlans } from './install-plans.js';
import { runInstallPlans } from './install-runs.js';

const args = process.argv.slice(2);
const runInstalls = args.includes('--installs');
const given = args.find((arg) => !arg.startsWith('--'));
const root = given === undefined ? REPOSITORY_DOCS : resolve(given);
const templatesDir =
  given !== undefined && existsSync(join(root, 'snippets'))
    ? join(root, 'snippets')
    : REPOSITORY_TEMPLATES;

const tmp = mkdtempSync(join(tmpdir(), 'rt-check-docs-'));
console.log(`check-docs: building and packing into ${tmp}`);
await buildPackages();
const destination = join(tmp, 'tarballs');
mkdirSync(destination);
const tarballs = new Map<string, string>();
for (const dir of PUBLISHED_PACKAGES) {
  const packed = await packPackage(dir, destination);
  tarballs.set(packed.name, packed.tarball);
}
const project = join(tmp, 'docs');
const typesNode = await latestVersion('@types/node');
console.log(
  `check-docs: installing the tarballs, @types/node@${typesNode} and ${DOCS_LIBRARIES.join(', ')}`,
);
await createConsumerProject(
  project,
  [...tarballs.values()],
  [`@types/node@${typesNode}`, ...DOCS_LIBRARIES],
);
const templatesLabel =
  templatesDir === REPOSITORY_TEMPLATES ? 'tools/pack-check/snippets' : 'snippets';
const report = await checkDocs({ root, templatesDir, templatesLabel, project });
console.log(
  `check-docs: ${report.blocks.length} blocks, ${report.checked} type-checked, ${report.ran} run, ${report.problems.length} problems`,
);
const coverage = checkInstallCoverage({ root });
console.log(`check-docs: install commands, ${coverage.length} problems`);
const plans = runInstalls ? installPlans(root) : [];
const installs =
  plans.length > 0 ? await runInstallPlans(plans, { dir: join(tmp, 'installs'), tarballs }) : [];
if (runInstalls)
  console.log(`check-docs: ${plans.length} install runs, ${installs.length} problems`);
const problems = [...report.problems, ...coverage, ...installs];
if (problems.length > 0) {
  console.log(formatProblems(problems));
  process.exitCode = 1;
}
