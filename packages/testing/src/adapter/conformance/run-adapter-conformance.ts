/**
 * The one contract suite every HTTP adapter runs (docs/contract.md §9, docs/contract.md §7), like `runStateConformance`.
 */
import { describe } from 'vitest';
import { failOnUnhandledRejections } from '../../support/unhandled-rejections.js';
import { defineConvergenceTests } from './conformance-convergence.js';
import type { AdapterConformanceOptions, ConformanceBot } from './conformance-options.js';
import { defineRefusalTests } from './conformance-refusals.js';
import { createSessions } from './conformance-session.js';
import { defineBodyTests, defineSignatureTests } from './conformance-verification.js';

/**
 * Defines a vitest `describe(name)` suite that checks an adapter against the delivery contract,
 * over its web-standard `(Request) => Promise<Response>` transport:
 * - per shape: accepted as its row says and handled once; a wrong or missing signature 401 and
 *   nothing dispatched, idle, with the bound saturated and during shutdown; refused as its row
 *   says (status, body, follow-up platform calls) with the bound saturated (sync shapes:
 *   accepted, no cap), during shutdown, and with the unavailable wording when the State cannot
 *   mark it (a prelude error); a refused delivery is never marked (sent again after capacity
 *   frees, or to a runtime on the same State, it is accepted, not a duplicate);
 * - per adapter: a body over the limit 413 (unsigned: 401), unparsable bodies 400, none
 *   dispatched; `stop()`/`drain()` converge while clients keep sending during shutdown (no
 *   `stop_timed_out`/`drain_timed_out` notice).
 *
 * Every test also fails when a promise rejection went unhandled during it.
 *
 * The suite registers its own handler (returning `options.answer(event)`) on each bot, records
 * its observations, and saturates the bound by running it with `maxDetached: 1` and holding one
 * delivery of its own (dispatched through `runtime.dispatch`, shape `rt_conformance_hold`). It
 * asserts no wall-clock times. Call it at the top level of a test file.
 */
export function runAdapterConformance<P, B extends ConformanceBot = ConformanceBot>(
  name: string,
  options: AdapterConformanceOptions<P, B>,
): void {
  if (options.shapes.length === 0) throw new TypeError('shapes must name at least one shape');
  if (options.unparsable.length === 0) {
    throw new TypeError('unparsable must name at least one unparsable body');
  }
  describe(name, () => {
    failOnUnhandledRejections();
    const sessions = createSessions(options);
    describe('bodies', () => defineBodyTests(sessions, options));
    for (const shape of options.shapes) {
      describe(shape.name, () => {
        defineSignatureTests(sessions, shape);
        defineRefusalTests(sessions, shape);
      });
    }
    describe('shutdown', () => defineConvergenceTests(sessions, options));
  });
}
