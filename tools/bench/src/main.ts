import { measureThroughput } from './dispatch-throughput.js';
import { measureFlood } from './flood-memory.js';

const strategies = ['drop', 'queue', 'debounce', 'concurrent', 'burst'] as const;

console.log('rt dispatch benchmark (memory State, no-op handler, deferred dispatch)');
console.log('strategy     dispatches   seconds   dispatches/s   completed');
for (const strategy of strategies) {
  await measureThroughput(strategy, 5_000); // warm-up
  const r = await measureThroughput(strategy, 50_000);
  console.log(
    `${r.strategy.padEnd(12)} ${String(r.dispatches).padStart(10)} ${r.seconds.toFixed(2).padStart(9)} ${String(r.perSecond).padStart(14)} ${String(r.completed).padStart(11)}`,
  );
}

console.log('\nflood: handlers that never finish, 4 KiB payloads, far more events than the bound');
console.log(
  'sent       maxDetached  accepted  rejected  peak in flight  heap before/peak/after (MB)',
);
for (const [sent, bound] of [
  [20_000, 256],
  [100_000, 256],
  [100_000, 1024],
] as const) {
  const f = await measureFlood(sent, bound);
  console.log(
    `${String(f.sent).padEnd(10)} ${String(f.maxDetached).padEnd(12)} ${String(f.accepted).padEnd(9)} ${String(f.rejected).padEnd(9)} ${String(f.peakInFlight).padEnd(15)} ${f.heapBeforeMb} / ${f.heapPeakMb} / ${f.heapAfterMb}`,
  );
}
