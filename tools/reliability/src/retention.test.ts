import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { recordFigures, sized } from './support/figures.js';

const run = promisify(execFile);
const PROBE = fileURLToPath(new URL('./support/heap-probe.ts', import.meta.url));
const CAP = 256;

interface HeapFigures {
  readonly sent: number;
  readonly accepted: number;
  readonly rejected: number;
  readonly peakInFlight: number;
  readonly heapBeforeMb: number;
  readonly heapPeakMb: number;
}

async function probe(sent: number, kind: 'wait' | 'stream' = 'wait'): Promise<HeapFigures> {
  const { stdout } = await run(
    process.execPath,
    [
      '--expose-gc',
      '--conditions=@rt/source',
      '--import',
      'tsx',
      PROBE,
      String(sent),
      String(CAP),
      kind,
    ],
    { cwd: fileURLToPath(new URL('..', import.meta.url)), maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as HeapFigures;
}

describe('retention under a flood of never-finishing handlers', () => {
  it('grows the heap by the cap, not by the number of events: N and 10 N retain nearly the same', async () => {
    const n = sized(4000, 20_000);
    const small = await probe(n);
    const large = await probe(10 * n);
    for (const figures of [small, large]) {
      expect(figures.accepted).toBe(CAP);
      expect(figures.peakInFlight).toBe(CAP);
      expect(figures.rejected).toBe(figures.sent - CAP);
    }
    const growth = (f: HeapFigures) => f.heapPeakMb - f.heapBeforeMb;
    // Each accepted event holds a 4 KiB payload: the cap retains about 1 MiB plus its closures.
    // Were retention proportional to N, the 10 N run would hold about 10x the N run.
    expect(growth(small)).toBeGreaterThan(0);
    expect(Math.abs(growth(large) - growth(small))).toBeLessThanOrEqual(
      Math.max(0.25 * growth(small), 1.5),
    );
    recordFigures('retention', {
      maxDetached: CAP,
      n,
      heapGrowthAtNMb: Math.round(growth(small) * 10) / 10,
      heapGrowthAt10NMb: Math.round(growth(large) * 10) / 10,
      rejectedAt10N: large.rejected,
    });
  });

  it('holds streams in flight the same way: N and 10 N stalled streamed replies retain nearly the same', async () => {
    const n = sized(4000, 20_000);
    const small = await probe(n, 'stream');
    const large = await probe(10 * n, 'stream');
    for (const figures of [small, large]) {
      expect(figures.accepted).toBe(CAP);
      expect(figures.peakInFlight).toBe(CAP);
      expect(figures.rejected).toBe(figures.sent - CAP);
    }
    const growth = (f: HeapFigures) => f.heapPeakMb - f.heapBeforeMb;
    // Each stream in flight holds its event (4 KiB), its scheduler and its written 2 KiB reply:
    // bounded per stream (docs/streaming.md), so the cap bounds them all.
    expect(growth(small)).toBeGreaterThan(0);
    expect(Math.abs(growth(large) - growth(small))).toBeLessThanOrEqual(
      Math.max(0.25 * growth(small), 1.5),
    );
    recordFigures('retention-stream', {
      maxDetached: CAP,
      n,
      heapGrowthAtNMb: Math.round(growth(small) * 10) / 10,
      heapGrowthAt10NMb: Math.round(growth(large) * 10) / 10,
      rejectedAt10N: large.rejected,
    });
  });
});
