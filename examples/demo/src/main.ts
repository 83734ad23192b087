import { main } from './run-demo.js';

const interrupt = new AbortController();
process.once('SIGINT', () => interrupt.abort(new Error('interrupted')));
const { exitCode } = await main(process.argv.slice(2), {
  stdout: process.stdout,
  signal: interrupt.signal,
});
process.exitCode = exitCode;
