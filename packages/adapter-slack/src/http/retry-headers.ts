import type { DeliveryRetry } from '@rt/core';

/**
 * Slack's redelivery headers: `x-slack-retry-num` (1..3) and `x-slack-retry-reason`
 * (`http_timeout`, `http_error`, ...). `undefined` on a first delivery or a malformed number.
 */
export function retryOf(num: string | null, reason: string | null): DeliveryRetry | undefined {
  if (num === null || !/^\d+$/.test(num.trim())) return undefined;
  const attempt = Number(num.trim());
  if (attempt < 1) return undefined;
  return reason !== null && reason.length > 0 ? { attempt, reason } : { attempt };
}
