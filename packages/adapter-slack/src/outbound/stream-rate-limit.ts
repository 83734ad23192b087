/** How the Slack adapter reads a rate-limit answer from the `WebClient`'s errors. */
/** Ms to wait when `error` is Slack's rate-limit answer, else `undefined`. */
export function slackRetryAfterMs(error: unknown): number | undefined {
  const { code, retryAfter, message, data } = (error ?? {}) as {
    code?: unknown;
    retryAfter?: unknown;
    message?: unknown;
    data?: { error?: unknown };
  };
  if (code === 'slack_webapi_rate_limited_error' && typeof retryAfter === 'number') {
    return retryAfter * 1000;
  }
  // WebClient's own 429 retries gave up: "A rate limit was exceeded (url: ..., retry-after: N)".
  const found = typeof message === 'string' ? /retry-after: (\d+)/.exec(message) : null;
  if (found) return Number(found[1]) * 1000;
  if (data?.error === 'ratelimited') return 1000;
  return undefined;
}

/**
 * True when `error` is the `WebClient`'s own 429 handling giving up: without
 * `rejectRateLimitedCalls` it pauses, waits the whole `Retry-After`, and only then throws "A rate
 * limit was exceeded (..., retry-after: N)" (for p-retry to retry, or to surface once retries are
 * spent). The wait is already behind the caller.
 */
export function waitedByClient(error: unknown): boolean {
  const { message } = (error ?? {}) as { message?: unknown };
  return typeof message === 'string' && message.startsWith('A rate limit was exceeded');
}
