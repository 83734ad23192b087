import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const HERE = new URL('.', import.meta.url).pathname;

/** Every module specifier a source file imports. */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)].map(
    (match) => match[1] as string,
  );
}

const HANDLERS = readdirSync(join(HERE, 'handlers'))
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .map((name) => join(HERE, 'handlers', name));

describe('the bot is written on the neutral API', () => {
  it('has handlers that import no platform package and never branch on the platform', () => {
    expect(HANDLERS.length).toBeGreaterThanOrEqual(3);
    for (const file of HANDLERS) {
      for (const specifier of importsOf(file)) {
        expect(specifier, file).not.toMatch(/^@rt\/adapter-|^@slack\/|^discord/);
      }
      const source = readFileSync(file, 'utf8');
      expect(source, file).not.toMatch(/['"](slack|discord)['"]/);
    }
  });

  it('imports a platform package only where it creates the adapters', () => {
    const platformImports = readdirSync(HERE)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .filter((name) => importsOf(join(HERE, name)).some((s) => /^@rt\/adapter-/.test(s)));
    expect(platformImports).toEqual(['bot.ts']);
  });
});
