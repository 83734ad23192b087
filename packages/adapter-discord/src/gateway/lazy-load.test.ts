import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const INDEX = pathToFileURL(fileURLToPath(new URL('../index.ts', import.meta.url))).href;
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Counts the discord.js modules a fresh Node process has loaded after running `body`. */
async function discordJsModulesAfter(body: string): Promise<number> {
  const script = `
    import { createRequire } from 'node:module';
    const require = createRequire(${JSON.stringify(INDEX)});
    const mod = await import(${JSON.stringify(INDEX)});
    ${body}
    console.log(Object.keys(require.cache).filter((k) => k.includes('discord.js')).length);
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--conditions=@rt/source', '--import', TSX, '--input-type=module', '-e', script],
    { timeout: 30_000 },
  );
  return Number(stdout.trim());
}

describe('discord.js is loaded only when the gateway starts', () => {
  it('importing the package and creating an HTTP-only adapter loads none of discord.js; a gateway adapter’s start does', async () => {
    const create = `
      const adapter = mod.createDiscordAdapter({
        publicKey: '${'ab'.repeat(32)}', applicationId: '1', token: 't',
        apiUrl: 'http://127.0.0.1:9/api', GATEWAY
      });`;
    expect(await discordJsModulesAfter(create.replace('GATEWAY', 'gateway: false'))).toBe(0);
    expect(await discordJsModulesAfter(create.replace('GATEWAY', 'gateway: true'))).toBe(0);
    const started = `${create.replace('GATEWAY', 'gateway: { readyTimeoutMs: 1 }')}
      const controller = new AbortController();
      await adapter.start(controller.signal).catch(() => undefined);`;
    expect(await discordJsModulesAfter(started)).toBeGreaterThan(0);
  }, 60_000);
});
