export {
  closeHttpTransports,
  HTTP_TRANSPORTS,
  type HttpShells,
  type HttpTransport,
} from '../support/http-transports.js';
export { failOnUnhandledRejections } from '../support/unhandled-rejections.js';
export type {
  AdapterConformanceOptions,
  ConformanceBot,
  ConformanceBotOptions,
  ConformanceRuntimeOptions,
  ConformanceShape,
  ConformanceSignature,
  ExpectedAnswer,
  ExpectedRefusal,
  ReceivedAnswer,
  RefusalWording,
  UnparsableDelivery,
} from './conformance/conformance-options.js';
export {
  CONFORMANCE_BUSY_TEXT,
  CONFORMANCE_UNAVAILABLE_TEXT,
  readAnswer,
} from './conformance/conformance-session.js';
export { runAdapterConformance } from './conformance/run-adapter-conformance.js';
export {
  type FakeDispatch,
  type FakeRuntimeHandle,
  fakeRuntimeHandle,
} from './fake-runtime-handle.js';
