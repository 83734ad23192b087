export type { ActedByBot } from './adapter/test-actions.js';
export {
  createTestAdapter,
  type PostedByBot,
  type SyntheticEvent,
  type TestAdapter,
  type TestAdapterOptions,
} from './adapter/test-adapter.js';
export { EVERY_ELEMENT_CARD, EVERY_FIELD_FORM } from './conversation/fixtures.js';
export { type Deferred, deferred } from './support/deferred.js';
export {
  type AdapterNoticeObservation,
  type ObservationLog,
  type ObservationWaitOptions,
  observationLog,
} from './support/observation-log.js';
export {
  type StateCapability,
  type StateOverrides,
  type StateWithOptions,
  stateWith,
  unreachableState,
} from './support/state-with.js';
