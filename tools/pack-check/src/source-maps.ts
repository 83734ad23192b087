/**
 * Source maps in a packed package. The packages build with `declarationMap: false` (a `.d.ts.map`
 * would point an editor's "go to definition" at `../src`, which is not shipped) and with
 * `inlineSources` (a `.js.map` carries its sources, so stack traces and debuggers need no `src/`).
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/** The parts of a source map (v3) the check reads. */
interface SourceMap {
  readonly sourceRoot?: string;
  readonly sources?: readonly string[];
  readonly sourcesContent?: readonly (string | null)[];
}

const MAPPING_URL = /\/\/# sourceMappingURL=(\S+)\s*$/;

/**
 * What is wrong with the maps of the package unpacked at `root` whose tarball lists `files`:
 * a shipped `.d.ts.map`, a `sourceMappingURL` to a file not in the tarball, or a map source that
 * is neither in the tarball nor inlined. Empty when all is well.
 */
export function sourceMapProblems(root: string, files: readonly string[]): string[] {
  const shipped = new Set(files);
  const problems: string[] = [];
  for (const file of files) {
    if (file.endsWith('.d.ts.map')) problems.push(`${file}: declaration map shipped`);
    if (file.endsWith('.js') || file.endsWith('.d.ts')) {
      const url = MAPPING_URL.exec(readFileSync(join(root, file), 'utf8'))?.[1];
      if (url !== undefined && !url.startsWith('data:')) {
        const target = posix.join(posix.dirname(file), url);
        if (!shipped.has(target)) problems.push(`${file}: sourceMappingURL ${url} is not shipped`);
      }
    }
    if (file.endsWith('.map')) {
      const map = JSON.parse(readFileSync(join(root, file), 'utf8')) as SourceMap;
      for (const [index, source] of (map.sources ?? []).entries()) {
        if (typeof map.sourcesContent?.[index] === 'string') continue;
        const target = posix.join(posix.dirname(file), map.sourceRoot ?? '', source);
        if (!shipped.has(target)) {
          problems.push(`${file}: source ${source} is neither shipped nor inlined`);
        }
      }
    }
  }
  return problems;
}
