/**
 * `pnpm bench strategies`: in-process dispatch cost per concurrency strategy (memory State, test
 * adapter, no-op handler, deferred dispatch, every event in its own thread so nothing coalesces
 * or waits on a lock), against a plain async call of the same no-op handler, in the same run.
 */
import type { StrategyName } from '@rt/core';
import type { BenchRunOptions, BenchSection } from '../report/section.js';
import { formatCount, formatFixed, median } from '../report/stats.js';
import { measurePlainCalls, measureThroughput } from './dispatch-throughput.js';

const STRATEGIES: readonly StrategyName[] = ['drop', 'queue', 'concurrent', 'debounce', 'burst'];
const TARGETED = new Set<StrategyName>(['drop', 'queue', 'concurrent']);
const TARGET_US = 10;

/** Runs the strategies benchmark. */
export async function strategiesBench(options: BenchRunOptions): Promise<BenchSection> {
  const count = options.smoke ? 300 : 50_000;
  const warmup = options.smoke ? 50 : 5_000;
  const plain: number[] = [];
  const perStrategy = new Map<StrategyName, number[]>(STRATEGIES.map((s) => [s, []]));
  for (let run = 0; run < options.runs; run += 1) {
    options.log(`strategies: run ${run + 1}/${options.runs}`);
    await measurePlainCalls(warmup);
    plain.push(await measurePlainCalls(count));
    for (const strategy of STRATEGIES) {
      await measureThroughput(strategy, warmup);
      const result = await measureThroughput(strategy, count);
      if (result.completed !== count) {
        throw new Error(`strategies ${strategy}: ${result.completed} of ${count} completed`);
      }
      perStrategy.get(strategy)!.push((result.seconds * 1e6) / count);
    }
  }
  const plainUs = median(plain);
  const rows = [
    ['plain async call (baseline)', formatFixed(plainUs, 3), formatCount(1e6 / plainUs), '1'],
    ...STRATEGIES.map((strategy) => {
      const us = median(perStrategy.get(strategy)!);
      return [strategy, formatFixed(us, 2), formatCount(1e6 / us), formatCount(us / plainUs)];
    }),
  ];
  return {
    name: 'strategies',
    title: 'In-process dispatch cost per strategy',
    method: [
      `${formatCount(count)} unique deliveries per strategy (after ${formatCount(warmup)} unmeasured), sent in waves of 1,024 (the default bound) and awaited to their terminal outcome; ${options.runs} run(s), medians.`,
      'Memory State, `@rt/testing` test adapter, no-op handler, deferred dispatch; debounce and burst with 1 ms windows (their figure includes that wait).',
      'The baseline is the same waves of a plain `async` call of the no-op handler.',
    ],
    tables: [
      {
        header: ['path', 'us per delivery', 'deliveries/s', 'x plain call'],
        rows,
      },
    ],
    targets: [...TARGETED].map((strategy) => {
      const us = median(perStrategy.get(strategy)!);
      return {
        target: `in-process dispatch <= ${TARGET_US} us per delivery (${strategy})`,
        figure: `${formatFixed(us, 2)} us (plain async call ${formatFixed(plainUs, 3)} us)`,
        met: us <= TARGET_US,
      };
    }),
  };
}
