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
/** Strategies with a window: their figure is the event loop's busy time, the window left out. */
const WINDOWED = new Set<StrategyName>(['debounce', 'burst']);
const TARGET_US = 10;

/** Runs the strategies benchmark. */
export async function strategiesBench(options: BenchRunOptions): Promise<BenchSection> {
  const count = options.smoke ? 300 : 50_000;
  const warmup = options.smoke ? 50 : 5_000;
  const plain: number[] = [];
  const wall = new Map<StrategyName, number[]>(STRATEGIES.map((s) => [s, []]));
  const busy = new Map<StrategyName, number[]>(STRATEGIES.map((s) => [s, []]));
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
      wall.get(strategy)!.push((result.seconds * 1e6) / count);
      busy.get(strategy)!.push((result.busySeconds * 1e6) / count);
    }
  }
  const plainUs = median(plain);
  /** The figure the target is on: wall time, or busy time for the windowed strategies. */
  const figureOf = (strategy: StrategyName) =>
    median((WINDOWED.has(strategy) ? busy : wall).get(strategy)!);
  const rows = [
    [
      'plain async call (baseline)',
      formatFixed(plainUs, 3),
      '-',
      '-',
      formatCount(1e6 / plainUs),
      '1',
    ],
    ...STRATEGIES.map((strategy) => {
      const us = figureOf(strategy);
      return [
        strategy,
        formatFixed(us, 2),
        formatFixed(median(wall.get(strategy)!), 2),
        formatFixed(median(busy.get(strategy)!), 2),
        formatCount(1e6 / us),
        formatCount(us / plainUs),
      ];
    }),
  ];
  return {
    name: 'strategies',
    title: 'In-process dispatch cost per strategy',
    method: [
      `${formatCount(count)} unique deliveries per strategy (after ${formatCount(warmup)} unmeasured), sent in waves of 1,024 (the default bound) and awaited to their terminal outcome; ${options.runs} run(s), medians.`,
      'Memory State, `@rt/testing` test adapter, no-op handler, deferred dispatch; debounce and burst with their shortest window, 1 ms.',
      "Wall: elapsed time per delivery. Busy: the event loop's active time per delivery (`performance.eventLoopUtilization`), which leaves out the time it sat idle, i.e. the windows debounce and burst wait out. The figure (and the target) is wall for drop, queue and concurrent, busy for debounce and burst.",
      'The baseline is the same waves of a plain `async` call of the no-op handler.',
    ],
    tables: [
      {
        header: ['path', 'us per delivery', 'wall us', 'busy us', 'deliveries/s', 'x plain call'],
        rows,
      },
    ],
    targets: STRATEGIES.map((strategy) => {
      const us = figureOf(strategy);
      const how = WINDOWED.has(strategy) ? ', window excluded' : '';
      return {
        target: `in-process dispatch <= ${TARGET_US} us per delivery (${strategy}${how})`,
        figure: `${formatFixed(us, 2)} us (plain async call ${formatFixed(plainUs, 3)} us)`,
        met: us <= TARGET_US,
      };
    }),
  };
}
