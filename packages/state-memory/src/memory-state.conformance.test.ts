import { runStateConformance } from '@rt/testing/state';
import { createMemoryState } from './memory-state.js';

runStateConformance('memory state', () => createMemoryState(), {
  lockWakeups: true,
  multiKeyMark: true,
  subscriptions: true,
  threadState: true,
});
