import type { Observation } from '../observe/observation.js';
import { createRuntime } from '../runtime/create-runtime.js';
import type { CreateRuntimeOptions } from '../runtime/options.js';
import type { Runtime } from '../runtime/runtime-types.js';
import { createTestAdapter, type TestAdapter, type TestAdapterOptions } from './test-adapter.js';
import { TestState } from './test-state.js';

/**
 * A runtime wired to a TestState and a test adapter (built from `adapterOptions`), recording
 * every observation.
 */
export function setup(
  options: Partial<CreateRuntimeOptions> = {},
  adapterOptions: TestAdapterOptions = {},
): {
  runtime: Runtime;
  state: TestState;
  adapter: TestAdapter;
  observations: Observation[];
  ofType: <T extends Observation['type']>(type: T) => Extract<Observation, { type: T }>[];
} {
  const state = (options.state as TestState | undefined) ?? new TestState();
  const adapter = createTestAdapter(adapterOptions);
  const observations: Observation[] = [];
  const runtime = createRuntime({
    ...options,
    state,
    adapters: [adapter, ...(options.adapters ?? [])],
    observers: [(o) => void observations.push(o), ...(options.observers ?? [])],
  });
  return {
    runtime,
    state,
    adapter,
    observations,
    ofType: (type) =>
      observations.filter((o) => o.type === type) as Extract<Observation, { type: typeof type }>[],
  };
}
