/**
 * What a document says a reader installs, read from its Markdown:
 *
 * - install commands: each `npm i` / `npm install` / `pnpm add` command with at least one package
 *   in a ` ```sh ` (or `bash`, `shell`, `zsh`, `console`) block;
 * - `<!-- brings: NAME... -->` lines outside fences: libraries the document tells the reader to
 *   bring themselves (the prose says so; the marker lets the check read it);
 * - links to a README's Install section (`[...](../packages/core/README.md#install)`) outside
 *   fences: on a page under `docs/`, the README(s) the page builds on.
 */
import { posix } from 'node:path';
import { extractFences } from './extract.js';

/** One install command of a document. */
export interface InstallCommand {
  /** The document (repository-relative). */
  readonly file: string;
  /** 1-based line of the command in `file`. */
  readonly line: number;
  /** The command as written (comment and prompt removed, continuation lines joined). */
  readonly text: string;
  readonly tool: 'npm' | 'pnpm';
  /** The options, in order (`--save-dev`, `-D`). */
  readonly flags: readonly string[];
  /** The package specs, in order, as written (`ai@7`, `@rt/core`). */
  readonly specs: readonly string[];
}

/** What one document says about installing. */
export interface InstallFacts {
  readonly commands: readonly InstallCommand[];
  /** Libraries named by `<!-- brings: ... -->` markers. */
  readonly brings: readonly string[];
  /** Repository-relative READMEs whose `#install` section the document links, in order. */
  readonly bases: readonly { readonly readme: string; readonly line: number }[];
}

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'zsh', 'console']);
const BRINGS = /<!--\s*brings:\s*([^>]*?)\s*-->/g;
const INSTALL_LINK = /\]\(\s*<?([^)\s>#]*README\.md)#install>?\s*\)/g;

/**
 * The package name a spec installs (`@scope/name@range` gives `@scope/name`, `name@range` gives
 * `name`, an alias `name@npm:other` gives `name`), or `undefined` for a path, URL or git spec.
 */
export function packageNameOf(spec: string): string | undefined {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  const name = at < 0 ? spec : spec.slice(0, at);
  const valid = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;
  return valid.test(name) ? name : undefined;
}

/** The package a bare import specifier resolves in (`@rt/testing/slack` gives `@rt/testing`). */
export function packageOfSpecifier(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

/** The install command of one shell statement, or `undefined` when it is none. */
function installCommandOf(
  statement: string,
  file: string,
  line: number,
): InstallCommand | undefined {
  const words = statement.split(/\s+/).filter((word) => word.length > 0);
  const [tool, verb, ...rest] = words;
  const isInstall =
    (tool === 'npm' && (verb === 'i' || verb === 'install' || verb === 'add')) ||
    (tool === 'pnpm' && verb === 'add');
  if (!isInstall) return undefined;
  const flags = rest.filter((word) => word.startsWith('-'));
  const specs = rest.filter((word) => !word.startsWith('-'));
  if (specs.length === 0) return undefined;
  return { file, line, text: words.join(' '), tool, flags, specs };
}

/** The install commands of one shell block whose first code line is document line `first`. */
function commandsOfShell(code: string, file: string, first: number): InstallCommand[] {
  const commands: InstallCommand[] = [];
  const lines = code.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const start = index;
    let text = lines[index] as string;
    while (text.endsWith('\\') && index + 1 < lines.length) {
      index += 1;
      text = `${text.slice(0, -1)} ${lines[index] as string}`;
    }
    const statement = text
      .replace(/^\s*\$\s+/, '')
      .replace(/(^|\s)#.*$/, '')
      .trim();
    for (const part of statement.split(/&&|\|\||;|\|/)) {
      const command = installCommandOf(part.trim(), file, first + start);
      if (command !== undefined) commands.push(command);
    }
  }
  return commands;
}

/** Reads the install commands, `brings` markers and README install links of one document. */
export function installFactsOf(markdown: string, file: string): InstallFacts {
  const fences = extractFences(markdown);
  const commands = fences
    .filter((fence) => SHELL_LANGUAGES.has(fence.language))
    .flatMap((fence) => commandsOfShell(fence.code, file, fence.open + 2));
  const inFence = new Set(
    fences.flatMap((fence) =>
      Array.from({ length: fence.close - fence.open + 1 }, (_, i) => fence.open + i),
    ),
  );
  const brings: string[] = [];
  const bases: { readme: string; line: number }[] = [];
  for (const [index, text] of markdown.split(/\r?\n/).entries()) {
    if (inFence.has(index)) continue;
    for (const match of text.matchAll(BRINGS)) {
      brings.push(...(match[1] as string).split(/\s+/).filter((name) => name.length > 0));
    }
    for (const match of text.matchAll(INSTALL_LINK)) {
      const readme = posix.normalize(posix.join(posix.dirname(file), match[1] as string));
      if (!bases.some((base) => base.readme === readme)) bases.push({ readme, line: index + 1 });
    }
  }
  return { commands, brings, bases };
}
