/**
 * The program the State authors' fragments run in: `createMyState()`, the reader's own State.
 * Here the memory State (which has every optional capability) stands in for it.
 */

import type { State } from '@rt/core/state';
import { createMemoryState } from '@rt/state-memory';

function createMyState(): State {
  return createMemoryState();
}

/* fragment */

export { createMyState };
