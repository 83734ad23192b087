import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileAndRunBot,
  createConsumerProject,
  installedVersions,
  latestVersion,
} from './consumer.js';
import { checkDocs, type DocsReport, formatProblems } from './docs/check-docs.js';
import {
  BROKEN_DOCS,
  CHECK_REPOSITORY_DOCS,
  DOCS_LIBRARIES,
  FIXTURE_TEMPLATES,
  GOOD_DOCS,
  INSTALL_RUN_FIXTURE,
  REPOSITORY_DOCS,
  REPOSITORY_TEMPLATES,
} from './docs/docs-fixtures.js';
import { installPlans } from './docs/install-plans.js';
import { runInstallPlans } from './docs/install-runs.js';
import { peerRangeProblem } from './peer-range.js';
import { sourceMapProblems } from './source-maps.js';
import {
  buildPackages,
  exportConditions,
  exportTargets,
  type PackedPackage,
  PUBLISHED_PACKAGES,
  type PublishedPackage,
  packPackage,
  WORKSPACE_ROOT,
} from './workspace.js';

/**
 * The packages one Slack bot installs, and nothing more: the fixture fakes Slack with Node
 * built-ins, so `@rt/testing` (and `@rt/state-redis`) are packed and checked but never installed.
 */
const BOT_PACKAGES: readonly PublishedPackage[] = ['core', 'state-memory', 'adapter-slack'];
/** The same for a Discord bot: no Slack package, no test kit. */
const DISCORD_BOT_PACKAGES: readonly PublishedPackage[] = [
  'core',
  'state-memory',
  'adapter-discord',
];

describe('published packages, packed and installed outside the workspace', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'rt-pack-check-'));
  const packed = new Map<PublishedPackage, PackedPackage>();

  beforeAll(async () => {
    expect(relative(WORKSPACE_ROOT, tmp).startsWith('..')).toBe(true);
    await buildPackages();
    const destination = join(tmp, 'tarballs');
    mkdirSync(destination);
    for (const dir of PUBLISHED_PACKAGES) packed.set(dir, await packPackage(dir, destination));
  });

  afterAll(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  describe.each(PUBLISHED_PACKAGES)('%s tarball', (dir) => {
    const pkg = () => packed.get(dir) as PackedPackage;

    it('ships the built entry point, its declarations, README, LICENSE and package.json', () => {
      const missing = [
        'dist/index.js',
        'dist/index.d.ts',
        'README.md',
        'LICENSE',
        'package.json',
      ].filter((file) => !pkg().files.includes(file));
      expect(missing, `missing from ${pkg().name}`).toEqual([]);
    });

    it('ships no sources, tests or test support', () => {
      const leaked = pkg().files.filter(
        (file) =>
          file.startsWith('src/') ||
          /\.test\.|\.spec\./.test(file) ||
          file.includes('test-support/') ||
          file.endsWith('.tsbuildinfo') ||
          file.startsWith('tsconfig') ||
          file.startsWith('vitest.config'),
      );
      expect(leaked).toEqual([]);
    });

    it('ships no declaration maps, and every source map resolves inside the tarball', () => {
      expect(sourceMapProblems(pkg().root, pkg().files)).toEqual([]);
    });

    it('publishes exports whose every target is in the tarball, with types first and no source condition', () => {
      const { manifest, files } = pkg();
      const targets = exportTargets(manifest.exports).map((target) => target.replace(/^\.\//, ''));
      expect(targets.length).toBeGreaterThan(0);
      expect(targets.filter((target) => !files.includes(target))).toEqual([]);
      expect(exportConditions(manifest.exports)).not.toContain('@rt/source');
      for (const [subpath, conditions] of Object.entries(manifest.exports as object)) {
        if (typeof conditions === 'string') continue;
        expect(Object.keys(conditions as object)[0], `first condition of ${subpath}`).toBe('types');
      }
      for (const field of [manifest.main, manifest.types]) {
        if (field !== undefined) expect(files).toContain(field.replace(/^\.\//, ''));
      }
    });

    it('declares MIT, Node >= 20 and real version ranges (no workspace: protocol)', () => {
      const { manifest } = pkg();
      expect(manifest.license).toBe('MIT');
      expect(manifest.engines?.node).toBe('>=20');
      expect(JSON.stringify(manifest)).not.toContain('workspace:');
      if (dir === 'core') return;
      const range = manifest.peerDependencies?.['@rt/core'] ?? '(none)';
      const core = (packed.get('core') as PackedPackage).manifest.version;
      expect(
        peerRangeProblem(range, core),
        `peer range on the packed core ${core}`,
      ).toBeUndefined();
    });
  });

  it('state-redis ships its Lua scripts beside the module that loads them', () => {
    const files = packed.get('state-redis')?.files ?? [];
    const lua = readdirLua(join(WORKSPACE_ROOT, 'packages/state-redis/src'));
    expect(lua.length).toBeGreaterThan(0);
    expect(lua.filter((file) => !files.includes(`dist/${file}`))).toEqual([]);
  });

  it('installs only core, state-memory and adapter-slack, type-checks strictly and runs a Slack bot', async () => {
    const project = join(tmp, 'bot');
    const tarballs = BOT_PACKAGES.map((dir) => (packed.get(dir) as PackedPackage).tarball);
    await createConsumerProject(project, tarballs);
    expect(readdirSync(join(project, 'node_modules/@rt')).sort()).toEqual([
      'adapter-slack',
      'core',
      'state-memory',
    ]);

    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules/@rt/adapter-slack/package.json'), 'utf8'),
    ) as { exports: unknown };
    expect(exportConditions(installed.exports)).not.toContain('@rt/source');
    // The adapter and @slack/socket-mode share one @slack/web-api major: one copy is installed.
    expect(await installedVersions(project, '@slack/web-api')).toEqual([
      expect.stringMatching(/^8\./),
    ]);

    const output = await compileAndRunBot(project);
    expect(output.trim().split('\n')).toEqual([
      'wakeups true',
      'status 200',
      'posted {"channel":"C0CHAN","thread_ts":"1700000000.000100","text":"pong: <@U0BOT> ping"}',
      'outcomes completed=1',
    ]);
  });

  it('installs only core, state-memory and adapter-discord, type-checks strictly and runs a Discord bot', async () => {
    const project = join(tmp, 'discord-bot');
    const tarballs = DISCORD_BOT_PACKAGES.map((dir) => (packed.get(dir) as PackedPackage).tarball);
    await createConsumerProject(project, tarballs);
    expect(readdirSync(join(project, 'node_modules/@rt')).sort()).toEqual([
      'adapter-discord',
      'core',
      'state-memory',
    ]);
    expect(existsSync(join(project, 'node_modules/@slack'))).toBe(false);

    const output = await compileAndRunBot(project, 'discord-bot.ts');
    expect(output.trim().split('\n')).toEqual([
      'ping 200 {"type":1}',
      'command 200 {"type":5}',
      'edited {"content":"pong: word:hello","allowed_mentions":{"parse":["users"]}}',
      'outcomes completed=1',
    ]);
  });

  it('a project of only core, state-memory and testing type-checks with no @types of its own', async () => {
    const project = join(tmp, 'test-kit');
    const tarballs = (['core', 'state-memory', 'testing'] as const).map(
      (dir) => (packed.get(dir) as PackedPackage).tarball,
    );
    await createConsumerProject(project, tarballs, []);
    expect(existsSync(join(project, 'node_modules/@types/node/package.json'))).toBe(true);
    expect(existsSync(join(project, 'node_modules/@types/ws/package.json'))).toBe(true);
    const output = await compileAndRunBot(project, 'test-kit.ts');
    expect(output.trim().split('\n')).toEqual(['fake true', 'ok']);
  });

  describe('the docs: every fenced TypeScript block, in one consumer project of every tarball', () => {
    const project = join(tmp, 'docs');
    beforeAll(async () => {
      const typesNode = await latestVersion('@types/node');
      const tarballs = PUBLISHED_PACKAGES.map((dir) => (packed.get(dir) as PackedPackage).tarball);
      await createConsumerProject(project, tarballs, [
        `@types/node@${typesNode}`,
        ...DOCS_LIBRARIES,
      ]);
      const installed = JSON.parse(
        readFileSync(join(project, 'node_modules/@types/node/package.json'), 'utf8'),
      ) as { version: string };
      expect(installed.version).toBe(typesNode);
    });

    const check = (
      root: string,
      templatesDir: string,
      templatesLabel: string,
    ): Promise<DocsReport> => checkDocs({ root, templatesDir, templatesLabel, project });

    it('type-checks and runs every block of the fixture docs (each marker kind)', async () => {
      const report = await check(GOOD_DOCS, FIXTURE_TEMPLATES, 'fixture/docs/snippets');
      expect(formatProblems(report.problems)).toBe('');
      expect(report.blocks.map((block) => `${block.file}:${block.line} ${block.kind}`)).toEqual([
        'README.md:13 run',
        'README.md:39 program',
        'README.md:59 fragment',
        'README.md:67 nocheck',
        'packages/state-redis/README.md:4 fragment',
        'examples/discord/README.md:4 run',
        'docs/telemetry.md:4 program',
      ]);
      expect({ checked: report.checked, ran: report.ran }).toEqual({ checked: 6, ran: 2 });
    });

    it('reports every failing block at its document line with the compiler message', async () => {
      const report = await check(BROKEN_DOCS, FIXTURE_TEMPLATES, 'fixture/docs/snippets');
      const lines = formatProblems(report.problems).split('\n');
      const expected = [
        /^README\.md:6:40: error TS2304: Cannot find name 'undefinedState'\.$/,
        /^README\.md:10: ts run: still running 2 s after SIGTERM/,
        /^README\.md:32: fragment=missing: fixture\/docs\/snippets\/missing\.ts does not exist$/,
        /^README\.md:36:\d+: error TS2345: Argument of type 'number' is not assignable/,
        /^README\.md:40: unknown marker "runn": use ts, ts run, ts fragment=NAME or ts nocheck$/,
        /^docs\/page\.md:7:\d+: error TS2322: Type 'string' is not assignable to type 'number'/,
      ];
      expect(lines).toHaveLength(expected.length);
      for (const [index, pattern] of expected.entries()) expect(lines[index]).toMatch(pattern);
    });

    it('every package together installs one @slack/web-api (adapter-slack, slack-installs, socket-mode)', async () => {
      expect(await installedVersions(project, '@slack/web-api')).toEqual([
        expect.stringMatching(/^8\./),
      ]);
    });

    it.runIf(CHECK_REPOSITORY_DOCS)(
      'type-checks and runs every block of the repository docs',
      async () => {
        const report = await check(
          REPOSITORY_DOCS,
          REPOSITORY_TEMPLATES,
          'tools/pack-check/snippets',
        );
        expect(formatProblems(report.problems)).toBe('');
      },
    );

    const installRun = (root: string, dir: string) =>
      runInstallPlans(installPlans(root), {
        dir: join(tmp, dir),
        tarballs: new Map([...packed.values()].map((pkg) => [pkg.name, pkg.tarball])),
      });

    it('reports an install command npm refuses and one npm installs over a conflicting peer', async () => {
      const lines = formatProblems(await installRun(INSTALL_RUN_FIXTURE, 'installs-fixture'));
      const problems = lines.split(/\n(?=\S)/);
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(
        /^packages\/otel\/README\.md:7: npm install @opentelemetry\/exporter-prometheus@0\.223 \(in the project of packages\/otel\/README\.md\):\n {2}npm warn ERESOLVE overriding peer dependency(?:\n|$)/,
      );
      expect(problems[1]).toMatch(
        /^packages\/state-redis\/README\.md:4: npm install @rt\/core @rt\/state-redis ioredis@4 \(in the project of packages\/state-redis\/README\.md\):\n {2}npm error (?:code )?ERESOLVE/,
      );
    });

    it.runIf(CHECK_REPOSITORY_DOCS)(
      'runs each install command of the repository docs in a fresh project, then npm install again, with no ERESOLVE or peer warning',
      async () => {
        expect(formatProblems(await installRun(REPOSITORY_DOCS, 'installs'))).toBe('');
      },
      600_000,
    );
  });
});

/** `.lua` files under `dir`, relative to it. */
function readdirLua(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.lua'))
    .map((file) => file.split('\\').join('/'));
}
