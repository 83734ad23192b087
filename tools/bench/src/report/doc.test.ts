import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeDoc } from './doc.js';
import type { BenchSection } from './section.js';

const section = (name: string, met: boolean[]): BenchSection => ({
  name,
  title: `the ${name} bench`,
  method: ['how'],
  tables: [{ header: ['a'], rows: [['1']] }],
  targets: met.map((ok, at) => ({ target: `${name} target ${at}`, figure: `${at}`, met: ok })),
});

describe('writeDoc', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const docPath = () => {
    const dir = mkdtempSync(join(tmpdir(), 'rt-bench-doc-'));
    dirs.push(dir);
    return join(dir, 'benchmarks.md');
  };

  it('writes every benchmark in order, keeps the ones not run and the analysis, and sums the targets', () => {
    const path = docPath();
    writeFileSync(path, '<!-- bench:analysis -->\nhand-written\n<!-- /bench:analysis -->\n');
    const order = ['ack', 'stream', 'subscriptions'];
    writeDoc(path, order, [section('stream', [true, false]), section('ack', [true])], 'm', 'd1');
    writeDoc(path, order, [section('subscriptions', [false])], 'm', 'd2');
    const doc = readFileSync(path, 'utf8');
    const markers = [...doc.matchAll(/<!-- bench:(\w+) -->/g)].map((match) => match[1]);
    expect(markers).toEqual(['targets', 'ack', 'stream', 'subscriptions', 'analysis']);
    expect(doc).toContain('hand-written');
    expect(doc).toContain('2 met, 2 missed.');
    expect(doc).toContain('- **missed**: stream target 1: 1 (`stream`, d1)');
    expect(doc).toContain('- **missed**: subscriptions target 0: 0 (`subscriptions`, d2)');
    expect(doc).toContain('- met: ack target 0: 0 (`ack`, d1)');
  });
});
