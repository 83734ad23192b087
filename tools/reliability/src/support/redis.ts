/**
 * The private `redis-server` handling of @rt/state-redis's own tests, reused (not copied): a
 * server on a free loopback port that a test may stop (SIGKILL) and restart on the same port.
 */

export { adminClient } from '../../../../packages/state-redis/src/test-support/redis-admin.js';
export {
  type PrivateRedisServer,
  startRedisServer,
} from '../../../../packages/state-redis/src/test-support/redis-server.js';
