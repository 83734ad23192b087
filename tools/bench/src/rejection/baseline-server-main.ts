/**
 * The refusal baseline's server process (`refusal-baseline.ts`): listens on 127.0.0.1 port 0 and
 * sends `{ type: 'ready', port }`; `{ type: 'stop' }` shuts it down. Its name ends in
 * `server-main.ts`, so `RT_BENCH_CPU_PROF` profiles it like rt's server.
 */
import { createServer } from 'node:http';
import { BENCH_SECRET } from '../ack/deliveries.js';
import { serveParent } from '../proc/child.js';
import { refusalBaselineListener } from './refusal-baseline.js';

const server = createServer({ keepAliveTimeout: 60_000 }, refusalBaselineListener(BENCH_SECRET));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ type: 'ready', port: typeof address === 'object' ? address?.port : 0 });
});

serveParent({
  stop: () => {
    server.closeAllConnections();
    server.close();
    process.exit(0);
  },
});
