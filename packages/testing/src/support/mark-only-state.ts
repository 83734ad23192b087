import type { State } from '@rt/core';

/**
 * Dedupe marks without expiry and locks that are always granted: enough for this package's own
 * tests, whose deliveries never share a conversation. (@rt/state-memory cannot be used here: it
 * depends on this package for its conformance suite, and turbo refuses the cycle.) Private to
 * this package's tests: not exported, and kept out of `dist` by `tsconfig.build.json`.
 */
export function markOnlyState(): State {
  const marks = new Set<string>();
  let fence = 0;
  return {
    markEvent: async (key) => !marks.has(key) && Boolean(marks.add(key)),
    acquireLock: async (key, ttlMs) => {
      fence += 1;
      return { key, token: String(fence), fence, expiresAt: Date.now() + ttlMs };
    },
    renewLock: async () => true,
    releaseLock: async () => true,
    close: async () => {},
  };
}
