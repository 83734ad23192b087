export {
  createTestAdapter,
  type PostedByBot,
  type SyntheticEvent,
  type TestAdapter,
  type TestAdapterOptions,
} from './adapter/test-adapter.js';
