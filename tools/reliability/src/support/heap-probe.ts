/**
 * Prints, as one JSON line, the heap figures of a flood of `argv[2]` unique events against a
 * bound of `argv[3]`, whose handlers (`argv[4]`: `wait`, the default, or `stream`) never finish on their own (`measureFlood`, beside this file). Run in a fresh process with `--expose-gc` so each figure is measured after
 * a full collection and no earlier test's garbage is counted.
 */
import { type FloodHandlerKind, measureFlood } from './measure-flood.js';

const sent = Number(process.argv[2]);
const maxDetached = Number(process.argv[3]);
const kind = (process.argv[4] ?? 'wait') as FloodHandlerKind;
if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
  throw new Error('run the heap probe with node --expose-gc');
}
const result = await measureFlood(sent, maxDetached, kind);
process.stdout.write(`${JSON.stringify(result)}\n`);
