/**
 * The install check: every package a document's TypeScript blocks import is one its install
 * commands install, as written. A package counts as installed when an install command names it,
 * when it is a dependency or a (non-optional) peer dependency of an installed rt package (npm
 * installs both), when a `<!-- brings: NAME -->` marker names it, or, on a page under `docs/`,
 * when the README the page builds on (a link to its `README.md#install`) installs it.
 */

import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { PUBLISHED_PACKAGES, WORKSPACE_ROOT } from '../workspace.js';
import type { BlockProblem } from './assemble.js';
import { extractBlocks } from './extract.js';
import {
  type InstallCommand,
  type InstallFacts,
  installFactsOf,
  packageNameOf,
  packageOfSpecifier,
} from './install-commands.js';
import { documentedFiles } from './sources.js';

/** The fields of a package's manifest that say what installing it brings. */
export interface DependencyManifest {
  readonly name: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
}

/** The workspace manifests of every published package, by package name. */
export function publishedManifests(): ReadonlyMap<string, DependencyManifest> {
  const manifests = new Map<string, DependencyManifest>();
  for (const dir of PUBLISHED_PACKAGES) {
    const file = join(WORKSPACE_ROOT, 'packages', dir, 'package.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as DependencyManifest;
    manifests.set(manifest.name, manifest);
  }
  return manifests;
}

/** One bare import of a block: the package and the document line of the import. */
interface BlockImport {
  readonly name: string;
  readonly line: number;
}

/** The packages the blocks of a document import (one entry per block and package, first line). */
function importsOf(markdown: string, file: string): BlockImport[] {
  const imports: BlockImport[] = [];
  for (const block of extractBlocks(markdown, file)) {
    const seen = new Set<string>();
    for (const imported of ts.preProcessFile(block.code, true, true).importedFiles) {
      const specifier = imported.fileName;
      if (/^(?:\.|\/|[a-z]+:)/i.test(specifier) || isBuiltin(specifier)) continue;
      const name = packageOfSpecifier(specifier);
      if (seen.has(name)) continue;
      seen.add(name);
      const before = block.code.slice(0, imported.pos);
      imports.push({ name, line: block.line + before.split('\n').length - 1 });
    }
  }
  return imports;
}

/** `names` and everything installing them brings, as far as `manifests` tell. */
function withDependencies(
  names: Iterable<string>,
  manifests: ReadonlyMap<string, DependencyManifest>,
): Set<string> {
  const installed = new Set<string>();
  const pending = [...names];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (installed.has(name)) continue;
    installed.add(name);
    const manifest = manifests.get(name);
    if (manifest === undefined) continue;
    pending.push(...Object.keys(manifest.dependencies ?? {}));
    for (const peer of Object.keys(manifest.peerDependencies ?? {})) {
      if (manifest.peerDependenciesMeta?.[peer]?.optional !== true) pending.push(peer);
    }
  }
  return installed;
}

/** How a report names the install commands a document was checked against. */
function describeCommands(commands: readonly InstallCommand[], own: string): string {
  if (commands.length === 0) return 'it has none';
  const named = commands.map(
    (command) =>
      `${command.file === own ? '' : `${command.file}:`}line ${command.line}: ${command.text}`,
  );
  return named.join('; ');
}

/** Options of `checkInstallCoverage`. */
export interface InstallCoverageOptions {
  /** The tree whose documents are checked (the repository, or a fixture tree). */
  readonly root: string;
  /** What each rt package brings (default: the workspace's published manifests). */
  readonly manifests?: ReadonlyMap<string, DependencyManifest>;
}

/**
 * Checks every document under `options.root` (the documents the snippet convention covers);
 * returns one problem per block and package it imports that its install commands do not install,
 * at the line of the import, plus problems with the commands and links themselves. Never throws
 * for a bad document.
 */
export function checkInstallCoverage(options: InstallCoverageOptions): BlockProblem[] {
  const manifests = options.manifests ?? publishedManifests();
  const documents = documentedFiles(options.root);
  const texts = new Map(
    documents.map((file) => [file, readFileSync(join(options.root, file), 'utf8')]),
  );
  const facts = new Map<string, InstallFacts>(
    [...texts].map(([file, text]) => [file, installFactsOf(text, file)]),
  );
  const problems: BlockProblem[] = [];
  for (const file of documents) {
    const own = facts.get(file) as InstallFacts;
    const onDocsPage = file.startsWith('docs/');
    const bases = onDocsPage ? own.bases : [];
    const commands = [...own.commands];
    const brings = [...own.brings];
    for (const base of bases) {
      const readme = facts.get(base.readme);
      if (readme === undefined || readme.commands.length === 0) {
        problems.push({
          where: `${file}:${base.line}`,
          message: `links ${base.readme}#install as the README it builds on, which ${readme === undefined ? 'is not a checked README' : 'has no install command'}`,
        });
        continue;
      }
      commands.push(...readme.commands);
      brings.push(...readme.brings);
    }
    for (const command of own.commands) {
      for (const spec of command.specs) {
        const name = packageNameOf(spec);
        if (name === undefined) {
          problems.push({
            where: `${file}:${command.line}`,
            message: `${command.text}: cannot tell which package "${spec}" installs`,
          });
        } else if (name.startsWith('@rt/') && !manifests.has(name)) {
          problems.push({
            where: `${file}:${command.line}`,
            message: `${command.text}: ${name} is not a published package`,
          });
        }
      }
    }
    const installed = withDependencies(
      [
        ...commands.flatMap((command) =>
          command.specs.flatMap((spec) => packageNameOf(spec) ?? []),
        ),
        ...brings,
      ],
      manifests,
    );
    const imports = importsOf(texts.get(file) as string, file);
    const firstRt = imports.find((imported) => imported.name.startsWith('@rt/'));
    if (own.commands.length === 0 && bases.length === 0 && firstRt !== undefined) {
      problems.push({
        where: `${file}:${firstRt.line}`,
        message: `imports ${firstRt.name} but has no install command${onDocsPage ? ' and links no README.md#install it builds on' : ''}`,
      });
      continue;
    }
    for (const imported of imports) {
      if (installed.has(imported.name)) continue;
      problems.push({
        where: `${file}:${imported.line}`,
        message: `imports ${imported.name}, which no install command installs, nor a dependency of one (${describeCommands(commands, file)})`,
      });
    }
  }
  return problems;
}
