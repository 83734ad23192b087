import { main } from './run-demo.js';

const interrupt = new AbortController();
process.once('SIGINT', () => interrupt.abort(new Error('interrupted by Ctrl-C')));
const { exitCode } = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  signal: interrupt.signal,
});
process.exitCode = exitCode;
