import type { RtEvent } from '@rt/core';
import { StreamRateLimitedError } from '@rt/core/adapter';
import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { resolveSlackStreamOptions } from './stream-options.js';
import { SlackStreamWriter } from './stream-writer.js';

const EVENT = {
  adapter: 'slack',
  tenant: 'T1',
  id: 'Ev1',
  kind: 'mention',
  shape: 'event_callback',
  channel: 'C1',
  thread: '1800000000.000001',
  payload: {},
} as unknown as RtEvent;

/** A writer on the update path whose first call (`chat.postMessage`) rejects with `error`. */
function writerRejecting(error: unknown): SlackStreamWriter {
  const client = {
    chat: {
      postMessage: () => Promise.reject(error),
    },
  } as unknown as WebClient;
  return new SlackStreamWriter(
    async () => client,
    EVENT,
    resolveSlackStreamOptions({ native: false }),
  );
}

async function rateLimitOf(error: unknown): Promise<StreamRateLimitedError> {
  const thrown = await writerRejecting(error)
    .write('hello', new AbortController().signal)
    .catch((e: unknown) => e);
  expect(thrown).toBeInstanceOf(StreamRateLimitedError);
  return thrown as StreamRateLimitedError;
}

describe('the Slack stream writer on a rate-limit answer', () => {
  it("owes the scheduler Slack's Retry-After when the WebClient rejected the call at once", async () => {
    const limited = await rateLimitOf({ code: 'slack_webapi_rate_limited_error', retryAfter: 3 });
    expect(limited.retryAfterMs).toBe(3000);
  });

  it('owes nothing more when the WebClient had already waited the Retry-After out itself', async () => {
    // Without `rejectRateLimitedCalls`, WebClient pauses for the whole Retry-After and only then
    // throws this error: waiting it again would hold every 429 twice (and could push a stream's
    // marker past finishTimeoutMs).
    const limited = await rateLimitOf(
      new Error('A rate limit was exceeded (url: chat.postMessage, retry-after: 2)'),
    );
    expect(limited.retryAfterMs).toBe(0);
  });

  it('passes any other error through unchanged', async () => {
    const refused = new Error('channel_not_found');
    const thrown = await writerRejecting(refused)
      .write('hello', new AbortController().signal)
      .catch((e: unknown) => e);
    expect(thrown).toBe(refused);
  });
});
