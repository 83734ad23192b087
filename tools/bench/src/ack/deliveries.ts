/**
 * Unique, correctly signed Slack `app_mention` deliveries for load generators: one realistic body
 * (built by `@rt/testing/slack`) with its `event_id` and message `ts` replaced per delivery, so
 * no two deliveries share a dedupe mark or a thread, signed with the current time.
 */
import { createHmac } from 'node:crypto';
import { buildAppMentionEvent } from '@rt/testing/slack';

/** The signing secret every benchmark server accepts. */
export const BENCH_SECRET = 'bench-signing-secret';

/** One delivery ready to send. */
export interface SignedDelivery {
  readonly body: string;
  readonly headers: Record<string, string>;
}

const EVENT_ID = '__EVENT_ID__';
const TS = '__TS__';

/**
 * Returns a function producing the `n`-th delivery of a run (`run` keeps runs apart when one
 * server sees several; digits only, it becomes the `ts` fraction). Each costs one string build and one HMAC in the caller's process.
 */
export function deliveryFactory(run: string, secret = BENCH_SECRET): (n: number) => SignedDelivery {
  const template = buildAppMentionEvent({ eventId: EVENT_ID, ts: TS }).body;
  // Literal pieces at even indexes, placeholders at odd ones.
  const parts = template.split(/(__EVENT_ID__|__TS__)/);
  if (!parts.includes(EVENT_ID) || !parts.includes(TS))
    throw new Error('template lacks placeholders');
  return (n) => {
    const eventId = `Ev${run}x${n}`;
    const ts = `${1_700_000_000 + n}.${run.padStart(6, '0')}`;
    let body = '';
    for (const part of parts) body += part === EVENT_ID ? eventId : part === TS ? ts : part;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': `v0=${signature}`,
      },
    };
  };
}
