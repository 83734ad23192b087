/**
 * The shape ADR 0010 allows for a package's peer range on `@rt/core`: `>=FLOOR <CEILING` with
 * CEILING the next major of the current core (`<1.0.0` throughout 0.x), optionally behind
 * `workspace:`. Changesets keeps such a range while core stays inside it, so a core minor never
 * major-bumps the dependents; it rewrites a range core leaves (`>=1.0.0`, no ceiling), which this
 * shape then refuses until a maintainer sets the 1.x range deliberately.
 */

/** A release triple; a prerelease suffix is ignored. */
export type Version = readonly [major: number, minor: number, patch: number];

/** A parsed `>=FLOOR <CEILING` range. */
export interface PeerRange {
  readonly floor: Version;
  readonly ceiling: Version;
}

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$/;
const RANGE = /^(?:workspace:)?>=(\S+) <(\S+)$/;

/** Parses `X.Y.Z` (or `X.Y.Z-pre`); `undefined` for anything else. */
function parseVersion(text: string): Version | undefined {
  const match = VERSION.exec(text);
  if (match === null) return undefined;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** Parses `>=X.Y.Z <A.B.C`, with or without `workspace:`; `undefined` for any other range. */
function parsePeerRange(range: string): PeerRange | undefined {
  const match = RANGE.exec(range);
  if (match === null) return undefined;
  const floor = parseVersion(match[1] ?? '');
  const ceiling = parseVersion(match[2] ?? '');
  return floor === undefined || ceiling === undefined ? undefined : { floor, ceiling };
}

/** Negative, zero or positive as `a` is below, equal to or above `b`. */
function compareVersions(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Whether `range` admits `version`. */
function accepts(range: PeerRange, version: Version): boolean {
  return compareVersions(range.floor, version) <= 0 && compareVersions(version, range.ceiling) < 0;
}

/** `X+1.0.0`. */
function nextMajor(version: Version): Version {
  return [version[0] + 1, 0, 0];
}

/**
 * What is wrong with `range` as a peer range on core at `coreVersion`, or `undefined` when it
 * follows ADR 0010: the shape above, admitting the current core, ceiling at its next major.
 */
export function peerRangeProblem(range: string, coreVersion: string): string | undefined {
  const core = parseVersion(coreVersion);
  if (core === undefined) return `core version ${coreVersion} is not X.Y.Z`;
  const parsed = parsePeerRange(range);
  if (parsed === undefined) return `"${range}" is not ">=X.Y.Z <${nextMajor(core).join('.')}"`;
  if (!accepts(parsed, core)) return `"${range}" does not admit the current core ${coreVersion}`;
  if (compareVersions(parsed.ceiling, nextMajor(core)) !== 0) {
    return `"${range}" must end at core's next major, <${nextMajor(core).join('.')}`;
  }
  return undefined;
}
