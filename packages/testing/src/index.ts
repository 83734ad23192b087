export {
  createTestAdapter,
  type PostedByBot,
  type SyntheticEvent,
  type TestAdapter,
  type TestAdapterOptions,
} from './adapter/test-adapter.js';
export { type Deferred, deferred } from './support/deferred.js';
export {
  type AdapterNoticeObservation,
  type ObservationLog,
  type ObservationWaitOptions,
  observationLog,
} from './support/observation-log.js';
export { type StateOverrides, stateWith, unreachableState } from './support/state-with.js';
