/**
 * A minimal local Slack Socket Mode for throughput (child process): `POST
 * /api/apps.connections.open` answers a `ws://` URL on the same port; the first WebSocket
 * connection is greeted with `hello`, then sent `count` unique `events_api` envelopes
 * (`app_mention`) keeping `window` unacknowledged at most, each next one sent on an ack. It sends
 * `{ type: 'started' }` over IPC when that connection arrives and `{ type: 'result', seconds,
 * acked }` when all are acked. argv[2] is JSON `PumpConfig`.
 * Unlike `@rt/testing/slack`'s fake it records nothing, so the fake costs as little as possible.
 */
import { createServer } from 'node:http';
import { buildAppMentionEvent } from '@rt/testing/slack';
import { WebSocketServer } from 'ws';
import { serveParent } from '../proc/child.js';

/** How many envelopes to send and how many may be unacknowledged at once. */
export interface PumpConfig {
  readonly count: number;
  readonly window: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as PumpConfig;
const template = buildAppMentionEvent({ eventId: '__ID__', ts: '__TS__' }).body;
const parts = template.split(/(__ID__|__TS__)/);

function envelope(n: number): string {
  let payload = '';
  for (const part of parts) {
    payload +=
      part === '__ID__' ? `EvS${n}` : part === '__TS__' ? `${1_700_000_000 + n}.000001` : part;
  }
  return `{"envelope_id":"env-${n}","type":"events_api","accepts_response_payload":false,"retry_attempt":0,"retry_reason":"","payload":${payload}}`;
}

const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url?.startsWith('/api/apps.connections.open')) {
    req.resume();
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, url: `ws://127.0.0.1:${port}/link` }));
    return;
  }
  res.writeHead(404).end();
});
const wss = new WebSocketServer({ server });
let claimed = false;
wss.on('connection', (socket) => {
  if (claimed) {
    socket.close();
    return;
  }
  claimed = true;
  process.send?.({ type: 'started' });
  socket.send(
    JSON.stringify({
      type: 'hello',
      num_connections: 1,
      debug_info: { host: 'bench', approximate_connection_time: 3600 },
      connection_info: { app_id: 'A0APP' },
    }),
  );
  let sent = 0;
  let acked = 0;
  const started = performance.now();
  const send = () => {
    socket.send(envelope(sent));
    sent += 1;
  };
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { envelope_id?: string };
    if (typeof message.envelope_id !== 'string') return;
    acked += 1;
    if (sent < config.count) send();
    if (acked === config.count) {
      const seconds = (performance.now() - started) / 1000;
      process.send?.({ type: 'result', seconds, acked });
    }
  });
  while (sent < Math.min(config.window, config.count)) send();
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ type: 'ready', port: typeof address === 'object' ? address?.port : 0 });
});
serveParent({
  stop: () => {
    for (const client of wss.clients) client.terminate();
    server.close();
    process.exit(0);
  },
});
