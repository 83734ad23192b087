/**
 * The baseline every HTTP figure is a ratio to: plain `node:http` doing the least a correct Slack
 * endpoint must (read the body into one Buffer with a size limit, verify the signature, parse
 * the JSON, answer 200). `hold` also keeps each parsed payload and a timer for `holdMs`, like a
 * minimal server holding every delivery in flight.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const LIMIT = 1024 * 1024;

/** One held payload: the entry and its timer, nothing of the request it came with. */
interface HeldEntry {
  readonly payload: unknown;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Holds `payload` for `hold.holdMs`. Its own function, so the timer's closure captures only the
 * entry and the set: created inside the request's listeners, it would keep their context alive
 * (the request, the response and the body chunks), which is not what "a minimal server holding
 * every delivery" holds.
 */
function holdPayload(payload: unknown, hold: { holdMs: number; held: Set<unknown> }): void {
  const entry: HeldEntry = { payload, timer: undefined };
  const { held } = hold;
  entry.timer = setTimeout(() => held.delete(entry), hold.holdMs);
  held.add(entry);
}

/**
 * The baseline listener; `hold` retains each parsed payload for `holdMs`; `answer` writes the
 * answer to a verified, parsed delivery (default `200`, empty).
 */
export function baselineListener(
  secret: string,
  hold?: { holdMs: number; held: Set<unknown> },
  answer: (res: ServerResponse) => void = (res) => res.writeHead(200).end(),
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= LIMIT) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > LIMIT) {
        res.writeHead(413).end();
        return;
      }
      const body = Buffer.concat(chunks, size).toString('utf8');
      const timestamp = req.headers['x-slack-request-timestamp'];
      const signature = req.headers['x-slack-signature'];
      if (typeof timestamp !== 'string' || typeof signature !== 'string') {
        res.writeHead(401).end();
        return;
      }
      const expected = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest();
      const given = Buffer.from(signature.slice(3), 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.writeHead(401).end();
        return;
      }
      let payload: unknown;
      try {
        payload = JSON.parse(body);
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (hold !== undefined) holdPayload(payload, hold);
      answer(res);
    });
  };
}
