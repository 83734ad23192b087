/**
 * `pnpm --filter @rt/pack-check check-docs [DIR]`: builds and packs every package, installs the
 * tarballs into one fresh consumer project (kept under the OS temp directory and printed), checks
 * every fenced TypeScript block of the repository's documents (or of DIR, with DIR/snippets as
 * fragment templates when it exists) and prints each failing block as `file:line: message`.
 * Exits 1 when any block fails.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createConsumerProject, latestVersion } from '../consumer.js';
import { buildPackages, PUBLISHED_PACKAGES, packPackage } from '../workspace.js';
import { checkDocs, formatProblems } from './check-docs.js';
import { DOCS_LIBRARIES, REPOSITORY_DOCS, REPOSITORY_TEMPLATES } from './docs-fixtures.js';

const given = process.argv[2];
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
const tarballs: string[] = [];
for (const dir of PUBLISHED_PACKAGES) tarballs.push((await packPackage(dir, destination)).tarball);
const project = join(tmp, 'docs');
const typesNode = await latestVersion('@types/node');
console.log(
  `check-docs: installing the tarballs, @types/node@${typesNode} and ${DOCS_LIBRARIES.join(', ')}`,
);
await createConsumerProject(project, tarballs, [`@types/node@${typesNode}`, ...DOCS_LIBRARIES]);
const templatesLabel =
  templatesDir === REPOSITORY_TEMPLATES ? 'tools/pack-check/snippets' : 'snippets';
const report = await checkDocs({ root, templatesDir, templatesLabel, project });
console.log(
  `check-docs: ${report.blocks.length} blocks, ${report.checked} type-checked, ${report.ran} run, ${report.problems.length} problems`,
);
if (report.problems.length > 0) {
  console.log(formatProblems(report.problems));
  process.exitCode = 1;
}
