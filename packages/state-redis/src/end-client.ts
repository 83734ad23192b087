/**
 * Ending an ioredis client for good and waiting until its socket is gone.
 */
import type { RedisClient } from './connection.js';

/**
 * Ends `client` so it keeps no socket and no reconnect timer: `QUIT` when it is ready (pending
 * replies arrive first) and wait for `end`; while it is between reconnection attempts, cancel the
 * pending attempt (there is no socket to wait for: ioredis emits no `end` then); otherwise
 * disconnect and wait for `end`. Gives up waiting after `graceMs` (disconnecting hard). Never
 * rejects.
 */
export async function endClient(client: RedisClient, graceMs: number): Promise<void> {
  if (client.status === 'end') return;
  if (client.status === 'reconnecting') {
    client.disconnect();
    return;
  }
  let onEnd!: () => void;
  const ended = new Promise<void>((resolve) => {
    onEnd = resolve;
  });
  client.once('end', onEnd);
  const timer = setTimeout(() => {
    client.disconnect();
    onEnd();
  }, graceMs);
  timer.unref();
  try {
    if (client.status === 'ready') {
      await client.quit().catch(() => client.disconnect());
    } else {
      client.disconnect();
    }
    await ended;
  } finally {
    clearTimeout(timer);
    client.off('end', onEnd);
  }
}
