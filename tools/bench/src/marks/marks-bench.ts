/**
 * `pnpm bench marks`: heap bytes per live dedupe mark in the memory State (`@rt/state-memory`)
 * for 1,000,000 marks, beside a plain `Map` from key to epoch-milliseconds expiry (the naive
 * store) in the same run, each run in a fresh process (`marks/marks-main.ts`): heap after full
 * GCs per mark (the key included: only the store holds it), RSS from the OS, the cost of one mark,
 * and the heap left once the TTL has passed and the sweeper has reclaimed every mark.
 */
import { loadavg } from 'node:os';
import { runChild } from '../proc/child.js';
import type { BenchRunOptions, BenchSection } from '../report/section.js';
import { formatCount, formatFixed, formatMiB, median } from '../report/stats.js';
import type { MarksConfig, MarksResult } from './marks-main.js';

const TARGET_BYTES = 150;
const TTL_MS = 600_000;
const STORES = [
  { store: 'memory-state', label: 'memory State (`markEvent`)' },
  { store: 'map', label: 'baseline: `Map` of key to epoch-ms expiry, no sweeper' },
] as const;

/** Runs the marks benchmark. */
export async function marksBench(options: BenchRunOptions): Promise<BenchSection> {
  const count = options.smoke ? 10_000 : 1_000_000;
  const loadAverage = loadavg()[0]!;
  const results = new Map<MarksConfig['store'], MarksResult[]>(
    STORES.map(({ store }) => [store, []]),
  );
  for (let run = 0; run < options.runs; run += 1) {
    for (const { store } of STORES) {
      options.log(`marks: run ${run + 1}/${options.runs}, ${store}, ${formatCount(count)} marks`);
      const config: MarksConfig = { store, count, ttlMs: TTL_MS };
      const result = await runChild<MarksResult>('marks/marks-main.ts', [JSON.stringify(config)]);
      if (result.marksLive !== count || result.marksSwept !== 0 || !result.duplicatesHeld) {
        throw new Error(`marks: wrong ${store} behaviour ${JSON.stringify(result)}`);
      }
      results.get(store)!.push(result);
    }
  }
  const figures = (store: MarksConfig['store']) => {
    const runs = results.get(store)!;
    const m = (pick: (r: MarksResult) => number) => median(runs.map(pick));
    return {
      perMark: m((r) => (r.heapLive - r.heapBase) / r.count),
      total: m((r) => r.heapLive - r.heapBase),
      rssPerMark: m((r) => (r.rssLive - r.rssBase) / r.count),
      sweptPerMark: m((r) => (r.heapSwept - r.heapBase) / r.count),
      markUs: m((r) => r.markUs),
    };
  };
  const rows = STORES.map(({ store, label }) => {
    const f = figures(store);
    return [
      label,
      formatCount(count),
      formatFixed(f.perMark, 1),
      formatMiB(f.total),
      formatFixed(f.rssPerMark, 1),
      formatFixed(f.sweptPerMark, 1),
      formatFixed(f.markUs, 2),
    ];
  });
  const state = figures('memory-state');
  return {
    name: 'marks',
    title: 'Heap per live dedupe mark (memory State)',
    method: [
      `Load average when it started: ${formatFixed(loadAverage, 1)} (a shared machine; absolute figures move with it).`,
      `${formatCount(count)} unique marks, TTL ${TTL_MS / 60_000} min, in a fresh process per store and run; ${options.runs} run(s), medians. Each key (\`event:slack:T0ABCDE1234:Ev\` and ten base-36 digits, 37 characters) is built by \`installationMarkKey\` right before its mark, as the runtime builds one per delivery, so only the store holds it: its bytes count.`,
      'Heap per mark = (`heapUsed` after two full GCs with every mark live - the same before the first mark) / marks; RSS per mark likewise from the OS. "After expiry" is the heap once the clock passed the TTL and the sweeper reclaimed every mark (the baseline is cleared instead). Each run also checks that sampled keys are still duplicates 1 ms before their TTL.',
    ],
    tables: [
      {
        header: [
          'store',
          'marks',
          'heap bytes per live mark',
          'heap MiB for all',
          'RSS bytes per mark',
          'heap bytes per mark after expiry',
          'us per mark',
        ],
        rows,
      },
    ],
    targets: [
      {
        target: `memory State: <= ${TARGET_BYTES} bytes of heap per live dedupe mark (its key included)`,
        figure: `${formatFixed(state.perMark, 1)} B (${formatMiB(state.total)} MiB for ${formatCount(count)} marks)`,
        met: state.perMark <= TARGET_BYTES,
      },
    ],
  };
}
