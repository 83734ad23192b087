import { buildAppMentionEvent, type DeliveryResult, SignerClient } from '@rt/testing/slack';
import { BED_SECRET } from './bed-secrets.js';

/**
 * The `event_id` of the `n`th mention of a run: `Ev` and six digits, the shape `SlackFlood` and
 * `slackReplies` use (its ts is `1800000000.` and the same digits).
 */
export function mentionId(n: number): string {
  return `Ev${String(n).padStart(6, '0')}`;
}

/**
 * Delivers the mentions `ids` to a Slack bed at once, each signed as Slack would, each in its
 * own thread (its ts) of the channel `C<tenant>`; resolves with each delivery's result.
 */
export function deliverMentions(
  url: string,
  ids: readonly string[],
  tenant = 'T1',
): Promise<DeliveryResult[]> {
  const client = new SignerClient(url, BED_SECRET);
  return Promise.all(
    ids.map((id) =>
      client.deliver(
        buildAppMentionEvent({
          eventId: id,
          teamId: tenant,
          channel: `C${tenant}`,
          ts: `1800000000.${id.slice(2)}`,
          text: `<@U0BOT> ${id}`,
        }),
      ),
    ),
  );
}
