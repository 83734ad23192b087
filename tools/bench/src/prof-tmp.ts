import { measureThroughput } from './strategies/dispatch-throughput.js';
const s = (process.argv[2] ?? 'drop') as 'drop';
await measureThroughput(s, 5000);
const r = await measureThroughput(s, 50000);
console.log(s, (r.seconds * 1e6) / r.dispatches, 'us');
