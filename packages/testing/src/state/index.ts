export {
  DEFAULT_STATE_CONFORMANCE_OPTIONS,
  type StateConformanceOptions,
} from './conformance-context.js';
export { runStateConformance } from './run-state-conformance.js';
