/**
 * The refusal baseline: plain `node:http` doing the least a correct Slack endpoint must before it
 * refuses (read the body into one Buffer with a size limit, verify the signature, parse the JSON),
 * then answering what rt's full server answers an Events API delivery: `503` with the text body
 * `Service Unavailable`, keep-alive. The refusal twin of `ack/baseline.ts` (which answers 200):
 * the floor a refusal can cost on this machine, measured beside rt in the same run.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { baselineListener } from '../ack/baseline.js';

const BODY = 'Service Unavailable';
const HEADERS = Object.freeze({
  'content-type': 'text/plain; charset=utf-8',
  'content-length': String(Buffer.byteLength(BODY)),
});

/** The refusal baseline's listener: 401 / 413 / 400 like the ack baseline, else 503. */
export function refusalBaselineListener(
  secret: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  return baselineListener(secret, undefined, (res) => res.writeHead(503, HEADERS).end(BODY));
}
