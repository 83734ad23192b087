/**
 * Which Markdown documents the docs check reads: the root README, each package README, each
 * example README and every page under `docs/` (recursively), as repository-relative paths.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Markdown files under `dir` (recursively), sorted; none when `dir` does not exist. */
function markdownUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.md') && !file.split('/').includes('node_modules'))
    .sort()
    .map((file) => join(dir, file));
}

/** `<dir>/*\/README.md` for every subdirectory of `dir` that has one, sorted. */
function readmesOf(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(dir, entry.name, 'README.md'))
    .filter((file) => existsSync(file))
    .sort();
}

/**
 * The documents of the repository (or fixture tree) at `root` that the convention covers, as
 * paths relative to `root`: `README.md`, `packages/*\/README.md`, `examples/*\/README.md`,
 * `docs/**\/*.md`.
 */
export function documentedFiles(root: string): string[] {
  const files = [
    ...(existsSync(join(root, 'README.md')) ? [join(root, 'README.md')] : []),
    ...readmesOf(join(root, 'packages')),
    ...readmesOf(join(root, 'examples')),
    ...markdownUnder(join(root, 'docs')),
  ];
  return files.map((file) => relative(root, file).split('\\').join('/'));
}
