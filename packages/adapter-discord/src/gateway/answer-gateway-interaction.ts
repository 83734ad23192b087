import type { REST } from '@discordjs/rest';
import { timeoutSignal } from '@rt/core/adapter';
import { Routes } from 'discord-api-types/v10';
import { answerInteraction } from '../inbound/answer-interaction.js';
import type { InboundDeps } from '../inbound/inbound-deps.js';
import { restCall } from '../outbound/call.js';
import { type ParsedInteraction, parseInteraction } from '../parse/parse-interaction.js';

/** Discord's limit on the first answer to an interaction, counted from its creation. */
const INTERACTION_ANSWER_LIMIT_MS = 3000;

/**
 * Answers an INTERACTION_CREATE from the gateway (an app without an Interactions Endpoint URL)
 * with the same transport-neutral core as HTTP (docs/contract.md §9.2): the same normalisation, admission,
 * ephemeral decision before the ack and answer table, ready by `ackDeadlineMs` after receipt. The
 * callback goes to `POST /interactions/{id}/{token}/callback` through the adapter's bounded REST
 * client: for an accepted delivery that is `deferReply` (type 5, ephemeral as decided) or
 * `deferUpdate` (type 6), for a refusal a `reply` with flags 64 and the busy (or unavailable)
 * text. The call is cut when Discord's 3 s from receipt are up; a failure is an
 * `interaction_callback_failed` notice. Replies wait for the callback (as over HTTP). An
 * unusable payload is a `gateway_payload_ignored` notice. Never rejects.
 */
export async function answerGatewayInteraction(
  deps: InboundDeps,
  rest: REST,
  data: unknown,
  receivedAt: number,
): Promise<void> {
  let parsed: ParsedInteraction;
  try {
    parsed = parseInteraction(JSON.stringify(data));
  } catch (error) {
    deps.notice(
      'gateway_payload_ignored',
      { dispatch: 'INTERACTION_CREATE', reason: (error as Error).message },
      error,
    );
    return;
  }
  if (parsed.type === 'ping') return;
  const answer = await answerInteraction(deps, parsed, receivedAt);
  if (answer.type === 'not_attached') return;
  const { interaction } = parsed;
  const remainingMs = Math.max(1, receivedAt + INTERACTION_ANSWER_LIMIT_MS - deps.options.clock());
  const budget = timeoutSignal(remainingMs, 'Discord’s 3 s to answer the interaction are up');
  try {
    await restCall(
      rest,
      {
        method: 'post',
        route: Routes.interactionCallback(interaction.id, interaction.token),
        data: { body: answer.callback, auth: false },
      },
      budget.signal,
    );
  } catch (error) {
    deps.notice(
      'interaction_callback_failed',
      { shape: parsed.shape, eventId: interaction.id, callbackType: answer.callback.type },
      error,
    );
  } finally {
    budget.clear();
    answer.delivered();
  }
}
