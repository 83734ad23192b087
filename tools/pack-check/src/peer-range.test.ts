import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { peerRangeProblem } from './peer-range.js';
import { PUBLISHED_PACKAGES, WORKSPACE_ROOT } from './workspace.js';

interface Manifest {
  readonly version: string;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

function manifestOf(dir: string): Manifest {
  return JSON.parse(
    readFileSync(join(WORKSPACE_ROOT, 'packages', dir, 'package.json'), 'utf8'),
  ) as Manifest;
}

describe('peer ranges on @rt/core (ADR 0010)', () => {
  it('accepts a range that admits the current core and ends at its next major', () => {
    expect(peerRangeProblem('workspace:>=0.0.0 <1.0.0', '0.0.0')).toBeUndefined();
    expect(peerRangeProblem('>=0.1.0 <1.0.0', '0.3.2')).toBeUndefined();
    expect(peerRangeProblem('workspace:>=1.2.0 <2.0.0', '1.4.0')).toBeUndefined();
  });

  it('refuses carets, a missing ceiling, a floor above core and a ceiling past the next major', () => {
    expect(peerRangeProblem('workspace:^0.0.0 || ^0.1.0', '0.1.0')).toMatch(/is not/);
    expect(peerRangeProblem('workspace:>=1.0.0', '1.0.0')).toMatch(/is not/);
    expect(peerRangeProblem('>=0.4.0 <1.0.0', '0.3.0')).toMatch(/does not admit/);
    expect(peerRangeProblem('>=0.1.0 <1.0.0', '1.0.0')).toMatch(/does not admit/);
    expect(peerRangeProblem('>=0.1.0 <3.0.0', '0.3.0')).toMatch(/next major/);
  });

  it('every dependent declares one that admits the workspace core', () => {
    const core = manifestOf('core').version;
    const problems = PUBLISHED_PACKAGES.filter((dir) => dir !== 'core').flatMap((dir) => {
      const range = manifestOf(dir).peerDependencies?.['@rt/core'];
      if (range === undefined) return [`${dir}: no peer dependency on @rt/core`];
      const problem = peerRangeProblem(range, core);
      return problem === undefined ? [] : [`${dir}: ${problem}`];
    });
    expect(problems).toEqual([]);
  });

  it('changesets bumps peer dependents only when core leaves their range', () => {
    const config = JSON.parse(
      readFileSync(join(WORKSPACE_ROOT, '.changeset/config.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(config.___experimentalUnsafeOptions_WILL_CHANGE_IN_PATCH).toMatchObject({
      onlyUpdatePeerDependentsWhenOutOfRange: true,
    });
  });
});
