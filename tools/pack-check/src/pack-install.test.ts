import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileAndRunBot, createConsumerProject } from './consumer.js';
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
      'edited {"content":"pong: word:hello"}',
      'outcomes completed=1',
    ]);
  });
});

/** `.lua` files under `dir`, relative to it. */
function readdirLua(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.lua'))
    .map((file) => file.split('\\').join('/'));
}
