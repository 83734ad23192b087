import type { RtEvent } from '@rt/core';
import { abortable, FollowUpRunner } from '@rt/core/adapter';
import { SlackTokenError } from '../errors.js';
import { installationOf } from '../normalize/installation.js';
import type { ResolvedSlackOptions } from '../options.js';
import { postJson } from '../outbound/direct-call.js';
import { resolveToken } from '../outbound/token.js';
import type { FollowUp } from './answer.js';

/** One busy-signal follow-up and the event it answers (its installation picks the token). */
export interface SlackFollowUpJob {
  readonly event: RtEvent;
  readonly followUp: FollowUp;
}

/** The kit's follow-up runner, carrying Slack busy signals. */
export type SlackFollowUps = FollowUpRunner<SlackFollowUpJob>;

/**
 * Sends one busy signal: a `response_url` post, or `views.open`/`views.push` with the
 * interaction's `trigger_id` and a bot token. `signal` (the runner's budget) covers token
 * resolution and the HTTP call: at the budget the request is aborted and a token resolver still
 * pending is given up on (its late answer is ignored; the resolver itself is not cancelled), with a
 * `SlackTokenError` caused by the budget's `TimeoutError`.
 */
async function sendFollowUp(
  options: ResolvedSlackOptions,
  { event, followUp }: SlackFollowUpJob,
  signal: AbortSignal,
): Promise<void> {
  const fetchImpl = options.fetch;
  if (followUp.kind === 'response_url') {
    await postJson(fetchImpl, { url: followUp.url, body: followUp.body, signal, expectOk: false });
    return;
  }
  let token: string;
  try {
    token = await abortable(resolveToken(options.tokenResolver, installationOf(event)), signal);
  } catch (error) {
    if (!signal.aborted || error !== signal.reason) throw error;
    throw new SlackTokenError('token resolver did not answer within busySignalTimeoutMs', {
      cause: error,
    });
  }
  await postJson(fetchImpl, {
    url: `${options.apiUrl}${followUp.kind}`,
    body: { trigger_id: followUp.triggerId, view: followUp.view },
    token,
    signal,
    expectOk: true,
  });
}

/**
 * The adapter's busy-signal runner: each follow-up is best effort, starts on a later turn than
 * its acknowledgement (so it never delays it), and is bounded by `busySignalTimeoutMs` counted
 * from `start`. Failures go to `onFailure` (the adapter turns them into `busy_signal_failed`).
 */
export function createSlackFollowUps(
  options: ResolvedSlackOptions,
  onFailure: (job: SlackFollowUpJob, error: unknown) => void,
): SlackFollowUps {
  return new FollowUpRunner<SlackFollowUpJob>({
    send: (job, signal) => sendFollowUp(options, job, signal),
    budgetMs: options.busySignalTimeoutMs,
    budgetMessage: `busy signal ran past busySignalTimeoutMs (${options.busySignalTimeoutMs} ms)`,
    onFailure,
  });
}
