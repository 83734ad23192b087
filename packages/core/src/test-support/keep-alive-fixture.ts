/**
 * Run as its own process by keep-alive.test.ts: accepted work parked in a burst or debounce window
 * or waiting for a lock held elsewhere must keep the process alive until it settles.
 */
import { createRuntime } from '../runtime/create-runtime.js';
import { createTestAdapter } from './test-adapter.js';
import { TestState } from './test-state.js';

const named = process.argv[2];
const strategy = named === 'queue' || named === 'debounce' ? named : 'burst';
const state = new TestState();
const adapter = createTestAdapter();
const runtime = createRuntime({
  state,
  adapters: [adapter],
  concurrency: {
    strategy,
    burstWindowMs: 100,
    debounceMs: 100,
    lockPollInitialMs: 20,
    lockPollMaxMs: 50,
  },
});
let handled = 0;
runtime.onMessage(() => {
  handled += 1;
});
if (strategy === 'queue') {
  // Another instance holds the thread's lock for 200 ms.
  state.locks.set('test:T1:C1:t', { token: 'elsewhere', fence: 1, expiresAt: Date.now() + 200 });
}
const results = [await adapter.send({ thread: 't' }), await adapter.send({ thread: 't' })];
const outcomes = await Promise.all(
  results.map((r) => (r.status === 'accepted' ? r.settled.then((f) => f.outcome) : r.status)),
);
console.log(`${strategy} handled=${handled} outcomes=${outcomes.join(',')}`);
