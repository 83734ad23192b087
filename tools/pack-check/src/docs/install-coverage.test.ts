import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECK_REPOSITORY_DOCS, REPOSITORY_DOCS } from './docs-fixtures.js';
import { checkInstallCoverage } from './install-coverage.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../fixture/installs/${name}/`, import.meta.url));
const report = (root: string) =>
  checkInstallCoverage({ root }).map((problem) => `${problem.where}: ${problem.message}`);

describe('checkInstallCoverage', () => {
  it('passes documents whose install commands, dependencies, markers and READMEs cover every import', () => {
    expect(report(fixture('good'))).toEqual([]);
  });

  it('reports each import no install command brings at its line, naming the package', () => {
    const lines = report(fixture('broken'));
    const expected = [
      /^README\.md:4: npm install @rt\/core @rt\/state-mem @rt\/testing: @rt\/state-mem is not a published package$/,
      /^README\.md:9: imports @rt\/state-memory, which no install command installs, nor a dependency of one \(line 4: npm install @rt\/core @rt\/state-mem @rt\/testing\)$/,
      /^README\.md:10: imports @rt\/state-redis, /,
      /^README\.md:17: imports vitest, /,
      /^packages\/otel\/README\.md:9: imports @opentelemetry\/sdk-metrics, /,
      /^examples\/bot\/README\.md:4: imports @rt\/core but has no install command$/,
      /^docs\/linked\.md:3: links packages\/none\/README\.md#install as the README it builds on, which is not a checked README$/,
      /^docs\/linked\.md:6: imports @rt\/core, which no install command installs, nor a dependency of one \(it has none\)$/,
      /^docs\/page\.md:4: imports @rt\/core but has no install command and links no README\.md#install it builds on$/,
    ];
    expect(lines).toHaveLength(expected.length);
    for (const [index, pattern] of expected.entries()) expect(lines[index]).toMatch(pattern);
  });

  it('catches finding 8: the test kit README whose install line omitted @rt/state-memory', () => {
    // packages/testing/README.md as it was before 181d31a, which fixed its install line.
    expect(report(fixture('finding-8'))).toEqual([
      'packages/testing/README.md:13: imports @rt/state-memory, which no install command installs, nor a dependency of one (line 6: npm install --save-dev @rt/testing vitest)',
      'packages/testing/README.md:196: imports @slack/socket-mode, which no install command installs, nor a dependency of one (line 6: npm install --save-dev @rt/testing vitest)',
      'packages/testing/README.md:219: imports @rt/adapter-discord, which no install command installs, nor a dependency of one (line 6: npm install --save-dev @rt/testing vitest)',
    ]);
  });

  it.runIf(CHECK_REPOSITORY_DOCS)('passes every document of the repository', () => {
    expect(report(REPOSITORY_DOCS)).toEqual([]);
  });
});
