/**
 * A process using `shutdownOnSignals` whose shutdown ends when stdin says so: `finish` resolves
 * it, `fail` rejects it. With `LINGER=1` it stays alive after the shutdown (a leaked timer).
 */
import { createInterface } from 'node:readline';
import { shutdownOnSignals } from '../signals.js';

const lines = createInterface({ input: process.stdin });
const linger = process.env.LINGER === '1' ? setInterval(() => {}, 60_000) : undefined;
shutdownOnSignals(
  () =>
    new Promise<void>((resolve, reject) => {
      lines.on('line', (line) => {
        lines.close();
        if (line === 'fail') reject(new Error('could not stop'));
        else resolve();
        console.log('shutdown over');
      });
    }),
);
console.log(`ready${linger === undefined ? '' : ' (lingering)'}`);
