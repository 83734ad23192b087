import type { Observation } from '../observe/observation.js';

/**
 * Builds an `adapter_notice` observation from adapter `adapter`, named `name`. Each adapter
 * declares its names as a union (`type SlackNoticeName = 'busy_signal_failed' | ...`) and passes
 * it as `N`, so names are checked, never built from strings. `detail` and `error` are included
 * only when given; `at` is the wall clock, like every other observation's.
 */
export function adapterNotice<N extends string>(
  adapter: string,
  name: N,
  detail?: Readonly<Record<string, unknown>>,
  error?: unknown,
): Observation & { readonly type: 'adapter_notice'; readonly name: N } {
  return {
    type: 'adapter_notice',
    at: Date.now(),
    adapter,
    name,
    ...(detail !== undefined ? { detail } : {}),
    ...(error !== undefined ? { error } : {}),
  };
}
