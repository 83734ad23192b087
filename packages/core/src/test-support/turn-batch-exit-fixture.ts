/**
 * A process that queues two batched items and exits before its turn ends: both must still run
 * (in the `exit` event), in order. Prints what ran.
 */
import { writeSync } from 'node:fs';
import { runThisTurn } from '../http/turn-batch.js';

const print = { run: (text: string) => writeSync(1, `${text}\n`) };
runThisTurn(print, 'first', undefined, undefined);
runThisTurn(print, 'second', undefined, undefined);
process.exit(0);
