import { loadServer } from '/work/wt/h10-perf/tools/bench/src/ack/ack-bench.ts';
const kind = (process.argv[2] ?? 'native') as 'native';
const r = await loadServer({ kind, handlerMs: 0 }, { connections: 50, durationS: 6, warmupS: 1, run: '7' });
console.log(kind, Math.round(r.perSecond), r.p99Ms, r.byStatus);
