import { runChild, startChild } from './proc/child.js';
import { rssOf } from './proc/rss.js';

const kind = (process.argv[2] ?? 'native') as 'native';
const n = Number(process.argv[3] ?? 5000);
const { child, ready } = await startChild<{ port: number }>('ack/server-main.ts', [
  JSON.stringify({ kind, handlerMs: 60000, maxDetached: n + 1000 }),
]);
const before = await child.request<{ heapUsed: number }>({ type: 'memory' }, 'memory');
if (process.env.SNAP)
  console.log('idle snapshot', await child.request({ type: 'snapshot' }, 'snapshot'));
const idle = rssOf(child.pid);
const load = await runChild<any>('ack/load-main.ts', [
  JSON.stringify({ url: `http://127.0.0.1:${ready.port}/`, connections: 50, amount: n, run: '5' }),
]);
const after = await child.request<{ heapUsed: number; inFlight: number }>(
  { type: 'memory' },
  'memory',
);
const end = rssOf(child.pid);
console.log(
  kind,
  load.byStatus,
  'inFlight',
  after.inFlight,
  'heap/deliv KiB',
  ((after.heapUsed - before.heapUsed) / after.inFlight / 1024).toFixed(2),
  'rss/deliv KiB',
  ((end - idle) / after.inFlight / 1024).toFixed(2),
);
if (process.env.SNAP)
  console.log('end snapshot', await child.request({ type: 'snapshot' }, 'snapshot'));
await child.stop();
