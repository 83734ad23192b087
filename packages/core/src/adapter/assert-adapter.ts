import type { Adapter } from './adapter.js';

/**
 * Throws a `TypeError` naming what is wrong unless `adapter` has a non-empty `name` and implements
 * `attach()` and `reply()`: the least a runtime needs before it registers an adapter.
 */
export function assertAdapter(adapter: Adapter): void {
  if (typeof adapter?.name !== 'string' || adapter.name.length === 0) {
    throw new TypeError('adapter.name must be a non-empty string');
  }
  if (typeof adapter.attach !== 'function' || typeof adapter.reply !== 'function') {
    throw new TypeError(`adapter "${adapter.name}" must implement attach() and reply()`);
  }
}
