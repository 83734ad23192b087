/**
 * `pnpm bench subscriptions`: what the subscribed-thread route check costs (docs/conversations.md).
 * In-process, memory State, test adapter, no-op handlers, deferred dispatch, strategy `concurrent`
 * (no lock: the figure is the prelude's). Four cases in the same run: no `onSubscribedMessage`
 * route (the baseline), the route registered and messages outside threads, plain messages in
 * unsubscribed threads, and plain messages in subscribed threads. Each case also counts the
 * State's subscription reads, the claim being one per plain message in a thread and none
 * elsewhere.
 */
import { createRuntime, threadKeyOf } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter } from '@rt/testing';
import type { BenchRunOptions, BenchSection } from '../report/section.js';
import { formatCount, formatFixed, median } from '../report/stats.js';

/** Deliveries sent at once: the default admission bound. */
const WAVE = 1024;

type Case = 'baseline' | 'outside-threads' | 'unsubscribed-threads' | 'subscribed-threads';
const CASES: readonly { readonly name: Case; readonly label: string }[] = [
  { name: 'baseline', label: 'no onSubscribedMessage route, messages in threads (baseline)' },
  { name: 'outside-threads', label: 'route registered, messages outside threads' },
  { name: 'unsubscribed-threads', label: 'route registered, plain messages, unsubscribed threads' },
  { name: 'subscribed-threads', label: 'route registered, plain messages, subscribed threads' },
];

/** One measured run: microseconds per delivery and subscription reads per delivery. */
async function measure(
  which: Case,
  count: number,
): Promise<{ us: number; readsPerMessage: number }> {
  const state = createMemoryState();
  let reads = 0;
  const touch = state.touchSubscription.bind(state);
  // An own property over the prototype's method: counts every subscription read of the runtime.
  state.touchSubscription = (key: string) => {
    reads += 1;
    return touch(key);
  };
  const adapter = createTestAdapter();
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    maxDetached: WAVE,
    concurrency: 'concurrent',
  });
  let handled = 0;
  runtime.onMessage(() => {
    handled += 1;
  });
  if (which !== 'baseline') {
    runtime.onSubscribedMessage(() => {
      handled += 1;
    });
  }
  const eventOf = (index: number) =>
    which === 'outside-threads'
      ? { channel: 'C1', thread: undefined }
      : { channel: 'C1', thread: `t${index}` };
  if (which === 'subscribed-threads') {
    for (let index = 0; index < count; index += 1) {
      const key = threadKeyOf({
        adapter: adapter.name,
        tenant: 'T1',
        id: 'x',
        kind: 'message',
        shape: 'message',
        receivedAt: 0,
        payload: undefined,
        ...eventOf(index),
      });
      await state.subscribe(key as string, 600_000);
    }
  }
  reads = 0;
  const started = performance.now();
  for (let sent = 0; sent < count; sent += WAVE) {
    const wave = Math.min(WAVE, count - sent);
    await Promise.all(
      Array.from({ length: wave }, (_, i) =>
        adapter.send({ tenant: 'T1', kind: 'message', ...eventOf(sent + i) }),
      ),
    );
    await adapter.settled();
  }
  const us = ((performance.now() - started) * 1000) / count;
  await runtime.shutdown();
  await state.close();
  if (handled !== count) throw new Error(`subscriptions ${which}: ${handled} of ${count} handled`);
  return { us, readsPerMessage: reads / count };
}

/** Runs the subscriptions benchmark. */
export async function subscriptionsBench(options: BenchRunOptions): Promise<BenchSection> {
  const count = options.smoke ? 300 : 50_000;
  const warmup = options.smoke ? 50 : 5_000;
  const us = new Map<Case, number[]>(CASES.map(({ name }) => [name, []]));
  const reads = new Map<Case, number>();
  for (let run = 0; run < options.runs; run += 1) {
    options.log(`subscriptions: run ${run + 1}/${options.runs}`);
    for (const { name } of CASES) {
      await measure(name, warmup);
      const result = await measure(name, count);
      us.get(name)!.push(result.us);
      reads.set(name, result.readsPerMessage);
    }
  }
  const baseline = median(us.get('baseline')!);
  const rows = CASES.map(({ name, label }) => {
    const value = median(us.get(name)!);
    return [
      label,
      formatFixed(value, 2),
      formatCount(1e6 / value),
      formatFixed(value / baseline, 2),
      formatFixed(reads.get(name) ?? 0, 2),
    ];
  });
  const outside = reads.get('outside-threads') ?? Number.NaN;
  const inThread = [reads.get('unsubscribed-threads'), reads.get('subscribed-threads')];
  return {
    name: 'subscriptions',
    title: 'The subscribed-thread route check',
    method: [
      `${formatCount(count)} unique deliveries per case (after ${formatCount(warmup)} unmeasured), in waves of 1,024, awaited to their terminal outcome; ${options.runs} run(s), medians.`,
      'Memory State (subscription reads counted by a wrapper), `@rt/testing` test adapter, no-op handlers, deferred dispatch, strategy `concurrent`.',
      'The subscribed case subscribes every thread before the measured run.',
    ],
    tables: [
      {
        header: [
          'case',
          'us per delivery',
          'deliveries/s',
          'x baseline',
          'State reads per message',
        ],
        rows,
      },
    ],
    targets: [
      {
        target: 'no subscription read for a message outside threads',
        figure: `${formatFixed(outside, 2)} reads per message`,
        met: outside === 0,
      },
      {
        target: 'exactly one subscription read per plain message in a thread',
        figure: `${inThread.map((value) => formatFixed(value ?? Number.NaN, 2)).join(' and ')} reads per message (unsubscribed, subscribed)`,
        met: inThread.every((value) => value === 1),
      },
    ],
  };
}
