/**
 * The program the AI SDK mock-model fragment runs in: a `runtime` on `@rt/testing`'s test adapter
 * and a memory State (a test's runtime), and `usage`, the token counts the mock's `finish` part
 * reports.
 */

import { createRuntime } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter } from '@rt/testing';

const runtime = createRuntime({ state: createMemoryState(), adapters: [createTestAdapter()] });
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/* fragment */

export { runtime, usage };
