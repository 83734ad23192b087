/**
 * The Discord baseline: plain `node:http` doing the least a correct interactions endpoint must
 * (read the body into one Buffer with a size limit, verify the Ed25519 signature over timestamp +
 * body, parse the JSON, answer 200 with the deferred-update callback `{"type":6}`).
 */
import { verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BENCH_DISCORD_KEY_OBJECT } from './discord-deliveries.js';

const LIMIT = 1024 * 1024;
const ANSWER = '{"type":6}';
const ANSWER_HEADERS = Object.freeze({
  'content-type': 'application/json',
  'content-length': String(ANSWER.length),
});

/** The Discord baseline listener. */
export function discordBaselineListener(): (req: IncomingMessage, res: ServerResponse) => void {
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
      const signature = req.headers['x-signature-ed25519'];
      const timestamp = req.headers['x-signature-timestamp'];
      if (typeof signature !== 'string' || typeof timestamp !== 'string') {
        res.writeHead(401).end();
        return;
      }
      const body = Buffer.concat(chunks, size);
      const message = Buffer.concat([Buffer.from(timestamp, 'utf8'), body]);
      if (!verify(null, message, BENCH_DISCORD_KEY_OBJECT, Buffer.from(signature, 'hex'))) {
        res.writeHead(401).end();
        return;
      }
      try {
        JSON.parse(body.toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      res.writeHead(200, ANSWER_HEADERS).end(ANSWER);
    });
  };
}
