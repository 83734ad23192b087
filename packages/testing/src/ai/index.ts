/**
 * `@rt/testing/ai`: an offline streamed AI reply for tests of `ctx.stream` handlers (needs the
 * optional peer `ai` 7).
 */
export {
  type MockTextStream,
  type MockTextStreamOptions,
  mockTextStream,
} from './mock-text-stream.js';
