/**
 * A Socket Mode client process for the socket benchmark. argv[2] is JSON `{ kind, apiUrl }`:
 * - `ws`: the baseline, a bare `ws` client that parses each envelope and acks its id;
 * - `slack-client`: the real `@slack/socket-mode` client, acking each event in its listener;
 * - `rt`: rt's Slack adapter with `socketMode` (the same client, guarded, on the transport-neutral
 *   core) and a runtime on memory State with a no-op `onMention` handler, deferred dispatch.
 * It sends `{ type: 'ready' }` once started and runs until it is stopped.
 */
import { SocketModeClient } from '@slack/socket-mode';
import WebSocket from 'ws';
import { serveParent } from '../proc/child.js';

const { kind, apiUrl } = JSON.parse(process.argv[2] ?? '{}') as { kind: string; apiUrl: string };
const APP_TOKEN = 'xapp-1-bench';

if (kind === 'ws') {
  const opened = await fetch(`${apiUrl}apps.connections.open`, {
    method: 'POST',
    headers: { authorization: `Bearer ${APP_TOKEN}` },
  });
  const { url } = (await opened.json()) as { url: string };
  const socket = new WebSocket(url);
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { envelope_id?: string };
    if (typeof message.envelope_id === 'string') {
      socket.send(JSON.stringify({ envelope_id: message.envelope_id }));
    }
  });
} else if (kind === 'slack-client') {
  const client = new SocketModeClient({
    appToken: APP_TOKEN,
    clientOptions: { slackApiUrl: apiUrl },
  });
  client.on('slack_event', async ({ ack }: { ack: () => Promise<void> }) => {
    await ack();
  });
  await client.start();
} else if (kind === 'rt') {
  const { createSlackAdapter } = await import('@rt/adapter-slack');
  const { createRuntime } = await import('@rt/core');
  const { createMemoryState } = await import('@rt/state-memory');
  const slack = createSlackAdapter({
    botToken: 'xoxb-bench',
    socketMode: { appToken: APP_TOKEN, apiUrl },
  });
  const runtime = createRuntime({ state: createMemoryState(), adapters: [slack] });
  runtime.onMention(() => {});
  await runtime.start();
} else {
  throw new TypeError(`unknown socket client kind "${kind}"`);
}
process.send?.({ type: 'ready' });
serveParent({ stop: () => process.exit(0) });
