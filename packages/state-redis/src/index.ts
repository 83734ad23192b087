export { StateClosedError } from '@rt/core';
export type { RedisClient } from './connection.js';
export type { KeyLayout } from './key-layout.js';
export { keyLayout } from './key-layout.js';
export {
  DEFAULT_REDIS_STATE_OPTIONS,
  RESERVED_REDIS_OPTIONS,
  type RedisStateClientOptions,
  type RedisStateCommonOptions,
  type RedisStateOptions,
  type RedisStateUrlOptions,
  type ReservedRedisOption,
} from './options.js';
export { createRedisState, type RedisState } from './redis-state.js';
