import { afterEach, beforeEach, expect } from 'vitest';

/** The real `setImmediate`, taken before any test can install fake timers over it. */
const realSetImmediate = globalThis.setImmediate;

/**
 * Registers vitest hooks that fail each test of the enclosing `describe` (or file, at top level)
 * when a promise rejection went unhandled during it. The check runs one macrotask after the test,
 * so background work started by the test's last step (a discarded body, a follow-up) has had its
 * turn (a real macrotask, so a test that left fake timers installed does not stall the check).
 * The listener is removed after every test.
 */
export function failOnUnhandledRejections(): void {
  let unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled = [];
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    await new Promise((resolve) => realSetImmediate(resolve));
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
}
