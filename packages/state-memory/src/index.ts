export { StateClosedError } from '@rt/core';
export {
  createMemoryState,
  type MemoryState,
  type MemoryStateStats,
} from './memory-state.js';
export {
  DEFAULT_MEMORY_STATE_OPTIONS,
  type MemoryStateOptions,
  type ResolvedMemoryStateOptions,
} from './options.js';
