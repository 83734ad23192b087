/**
 * The workspace side of the pack check: where the published packages live, building them, packing
 * them with pnpm (which applies `publishConfig` and rewrites `workspace:` ranges) and reading a
 * tarball back.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './run.js';

/** The monorepo root. */
export const WORKSPACE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every published package, by directory under `packages/`. */
export const PUBLISHED_PACKAGES = [
  'core',
  'state-memory',
  'state-redis',
  'adapter-slack',
  'adapter-discord',
  'testing',
  'otel',
  'slack-installs',
] as const;

export type PublishedPackage = (typeof PUBLISHED_PACKAGES)[number];

/** A packed package. */
export interface PackedPackage {
  readonly dir: PublishedPackage;
  readonly name: string;
  readonly tarball: string;
  /** Where the tarball is unpacked (its `package/` directory), to read shipped files from. */
  readonly root: string;
  /** Paths inside the tarball, without the leading `package/`, sorted. */
  readonly files: readonly string[];
  /** The `package.json` as published (after pnpm's `publishConfig` and `workspace:` rewriting). */
  readonly manifest: PackedManifest;
}

/** The fields of a published `package.json` the check looks at. */
export interface PackedManifest {
  readonly name: string;
  readonly version: string;
  readonly exports?: unknown;
  readonly main?: string;
  readonly types?: string;
  readonly engines?: Readonly<Record<string, string>>;
  readonly license?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly [key: string]: unknown;
}

/** Builds every published package (`tsc -p tsconfig.build.json` each, dependencies first). */
export async function buildPackages(): Promise<void> {
  await run('pnpm', ['--filter', './packages/*', 'build'], { cwd: WORKSPACE_ROOT });
}

/** Packs one package into `destination`, unpacks it into `destination/<dir>/` and lists it. */
export async function packPackage(
  dir: PublishedPackage,
  destination: string,
): Promise<PackedPackage> {
  const packageDir = join(WORKSPACE_ROOT, 'packages', dir);
  const { name } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    name: string;
  };
  const { stdout } = await run('pnpm', ['pack', '--pack-destination', destination, '--json'], {
    cwd: packageDir,
  });
  const { filename } = JSON.parse(stdout) as { filename: string };
  const listing = await run('tar', ['-tzf', filename], { cwd: destination });
  const files = listing.stdout
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => line.replace(/^package\//, ''))
    .sort();
  const unpacked = join(destination, dir);
  mkdirSync(unpacked);
  await run('tar', ['-xzf', filename, '-C', unpacked], { cwd: destination });
  const root = join(unpacked, 'package');
  return {
    dir,
    name,
    tarball: filename,
    root,
    files,
    manifest: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackedManifest,
  };
}

/** Every file path an `exports` map points at (conditions flattened). */
export function exportTargets(exportsField: unknown): string[] {
  if (typeof exportsField === 'string') return [exportsField];
  if (typeof exportsField !== 'object' || exportsField === null) return [];
  return Object.values(exportsField).flatMap((value) => exportTargets(value));
}

/** Every condition name used anywhere in an `exports` map. */
export function exportConditions(exportsField: unknown): string[] {
  if (typeof exportsField !== 'object' || exportsField === null) return [];
  return Object.entries(exportsField).flatMap(([key, value]) => [
    ...(key.startsWith('.') ? [] : [key]),
    ...exportConditions(value),
  ]);
}
