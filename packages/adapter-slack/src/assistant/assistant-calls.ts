import type { RtEvent } from '@rt/core';
import type { WebClient } from '@slack/web-api';
import { SlackTargetError } from '../errors.js';
import { withSignal } from '../outbound/signal-web-client.js';
import { assistantThreadOf } from './assistant-thread.js';

/** One suggested prompt of an assistant thread: its button title and the message it sends. */
export interface SlackSuggestedPrompt {
  readonly title: string;
  readonly message: string;
}

/** Resolves a `WebClient` for an event's installation (the adapter's bounded outbound). */
export type ClientFor = (event: RtEvent, signal?: AbortSignal) => Promise<WebClient>;

function threadOf(event: RtEvent) {
  const thread = assistantThreadOf(event);
  if (thread === undefined) {
    throw new SlackTargetError(`event ${event.type ?? event.shape} is not in an assistant thread`);
  }
  return thread;
}

/**
 * `assistant.threads.setStatus` on `event`'s assistant thread ("is thinking…"; an empty string
 * clears it; Slack clears it too when the app replies). Throws `SlackTargetError` outside an
 * assistant thread; `signal` aborts the call.
 */
export async function setAssistantStatus(
  clientFor: ClientFor,
  event: RtEvent,
  status: string,
  signal?: AbortSignal,
): Promise<void> {
  const { channel, threadTs } = threadOf(event);
  const client = await clientFor(event, signal);
  await client.assistant.threads.setStatus(
    withSignal({ channel_id: channel, thread_ts: threadTs, status }, signal),
  );
}

/** `assistant.threads.setSuggestedPrompts` (at most 4 prompts, Slack's limit), with an optional title. */
export async function setAssistantSuggestedPrompts(
  clientFor: ClientFor,
  event: RtEvent,
  prompts: readonly SlackSuggestedPrompt[],
  options: { readonly title?: string; readonly signal?: AbortSignal } = {},
): Promise<void> {
  if (prompts.length === 0 || prompts.length > 4) {
    throw new RangeError(`prompts must hold 1 to 4 prompts, got ${prompts.length}`);
  }
  const { channel, threadTs } = threadOf(event);
  const client = await clientFor(event, options.signal);
  await client.assistant.threads.setSuggestedPrompts(
    withSignal(
      {
        channel_id: channel,
        thread_ts: threadTs,
        prompts: prompts.map((prompt) => ({ title: prompt.title, message: prompt.message })) as [
          { title: string; message: string },
        ],
        ...(options.title !== undefined ? { title: options.title } : {}),
      },
      options.signal,
    ),
  );
}

/** `assistant.threads.setTitle`: the thread's title in the user's history. */
export async function setAssistantTitle(
  clientFor: ClientFor,
  event: RtEvent,
  title: string,
  signal?: AbortSignal,
): Promise<void> {
  const { channel, threadTs } = threadOf(event);
  const client = await clientFor(event, signal);
  await client.assistant.threads.setTitle(
    withSignal({ channel_id: channel, thread_ts: threadTs, title }, signal),
  );
}
