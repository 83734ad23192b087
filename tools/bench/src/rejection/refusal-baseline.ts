/**
 * The refusal baseline: plain `node:http` doing the least a correct Slack endpoint must before it
 * refuses (read the body into one Buffer with a size limit, verify the signature, parse the JSON),
 * then answering what rt's full server answers an Events API delivery: `503` with the text body
 * `Service Unavailable`, keep-alive. The refusal twin of `ack/baseline.ts` (which answers 200):
 * the floor a refusal can cost on this machine, measured beside rt in the same run.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const LIMIT = 1024 * 1024;
const BODY = 'Service Unavailable';
const HEADERS = Object.freeze({
  'content-type': 'text/plain; charset=utf-8',
  'content-length': String(Buffer.byteLength(BODY)),
});

/** The refusal baseline's listener: 401 / 413 / 400 like the ack baseline, else 503. */
export function refusalBaselineListener(
  secret: string,
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
      try {
        JSON.parse(body);
      } catch {
        res.writeHead(400).end();
        return;
      }
      res.writeHead(503, HEADERS).end(BODY);
    });
  };
}
