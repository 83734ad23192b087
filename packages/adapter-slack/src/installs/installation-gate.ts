import type { RtEvent } from '@rt/core';
import { type AckClock, abortable, type RuntimeHandle } from '@rt/core/adapter';
import { SlackUnknownInstallationError } from '../errors.js';
import type { SlackCoreDeps } from '../inbound/deps.js';
import { dispatchAndAnswer } from '../inbound/dispatch-answer.js';
import { installationOf, tenantOf } from '../normalize/installation.js';
import type { SlackInteractive } from '../parse/payload-types.js';
import { type Answer, EMPTY_ACK } from '../respond/answer.js';
import { actionSurfaceOf, refusalFor } from '../respond/refusal.js';
import type { SlackInstallationSource } from './installation-source.js';
import { revocationOf } from './revocation.js';

/**
 * The answer to a delivery of an installation the source does not know (uninstalled, revoked,
 * never installed): nothing is dispatched. Where the refusal reaches the user without a token of
 * the installation (slash commands, message actions and buttons through `response_url`, view
 * submissions, suggestions) it carries `text`; elsewhere (Events API, shortcuts, modal and Home
 * buttons, view closes) the plain 200: a redelivery would not help.
 */
export function unknownInstallationAnswer(event: RtEvent, text: string): Answer {
  switch (event.shape) {
    case 'slash_command':
    case 'message_action':
    case 'view_submission':
    case 'block_suggestion':
      return refusalFor(event, text);
    case 'block_actions':
      return actionSurfaceOf(event.payload as SlackInteractive) === 'message'
        ? refusalFor(event, text)
        : { ack: EMPTY_ACK };
    default:
      return { ack: EMPTY_ACK };
  }
}

/**
 * Dispatches `event` after checking its installation with the adapter's `installations` source
 * (without one, dispatches at once). `app_uninstalled` and `tokens_revoked` first `revoke` (a
 * failure: the unavailable refusal, so Slack redelivers and the deletion is retried), then are
 * dispatched like any event. Every other delivery first resolves its bot token (refreshing it
 * when due): `SlackUnknownInstallationError` gets `unknownInstallationAnswer` and an
 * `unknown_installation` notice; any other failure, or no answer by the sync deadline, gets the
 * unavailable refusal (Events API: 503, so Slack redelivers; direct invocations: the visible
 * unavailable text) and an `installation_unavailable` notice. Nothing is marked in either case.
 */
export async function answerInstalled(
  deps: SlackCoreDeps,
  runtime: RuntimeHandle,
  event: RtEvent,
  clock: AckClock,
): Promise<Answer> {
  const source: SlackInstallationSource | undefined = deps.options.installations;
  if (source === undefined) return dispatchAndAnswer(deps, runtime, event, clock);
  const installation = installationOf(event);
  const revocation = revocationOf(event);
  const signal = clock.syncSignal;
  try {
    const checking: Promise<unknown> =
      revocation === undefined
        ? source.botToken(installation, signal)
        : source.revoke(installation, revocation, signal);
    await abortable(checking, signal);
  } catch (error) {
    const detail = { shape: event.shape, eventId: event.id, tenant: tenantOf(installation) };
    if (revocation === undefined && error instanceof SlackUnknownInstallationError) {
      deps.notice('unknown_installation', detail);
      return unknownInstallationAnswer(event, deps.options.notInstalledText);
    }
    deps.notice('installation_unavailable', detail, error);
    return refusalFor(event, deps.options.unavailableText);
  }
  return dispatchAndAnswer(deps, runtime, event, clock);
}
