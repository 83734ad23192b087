import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { BenchSection } from './report/section.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const NAMES = [
  'ack',
  'flood',
  'socket',
  'redis',
  'strategies',
  'subscriptions',
  'marks',
  'rejection',
  'stream',
];

/** Runs `pnpm bench --smoke` for `names` and returns the sections it wrote as JSON. */
async function smoke(
  names: readonly string[],
): Promise<{ machine: string; sections: BenchSection[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'rt-bench-smoke-'));
  try {
    const json = join(dir, 'out.json');
    await promisify(execFile)(
      process.execPath,
      [
        ...['--expose-gc', '--conditions=@rt/source', '--import', 'tsx', MAIN],
        ...names,
        ...['--smoke', '--json', json],
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    return JSON.parse(readFileSync(json, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// A smoke, not a measurement: tiny sizes, and no assertion on any figure's value.
describe('pnpm bench --smoke', () => {
  it('runs every benchmark and reports well-formed tables and target checks', async () => {
    const output = await smoke(NAMES);
    expect(output.machine).toMatch(/Node v\d+/);
    expect(output.sections.map((section) => section.name)).toEqual(NAMES);
    for (const section of output.sections) {
      expect(section.method.length).toBeGreaterThan(0);
      expect(section.tables.length).toBeGreaterThan(0);
      for (const table of section.tables) {
        expect(table.rows.length).toBeGreaterThan(0);
        for (const row of table.rows) {
          expect(row).toHaveLength(table.header.length);
          for (const cell of row) expect(cell).toMatch(/^(?!.*NaN).*\S/);
        }
      }
      for (const target of section.targets) {
        expect(typeof target.met).toBe('boolean');
        expect(target.figure).toMatch(/^(?!.*(NaN|n\/a)).*\S/);
      }
    }
  });

  it('refuses an unknown benchmark name, naming the ones it has', async () => {
    await expect(smoke(['nope'])).rejects.toThrow(
      /unknown benchmark or option "nope".*ack, flood/s,
    );
  });
});
