import type { Handler, Runtime } from '@rt/core';
import {
  isAssistantThreadContextChanged,
  isAssistantThreadMessage,
  isAssistantThreadStarted,
} from './assistant-thread.js';

/** Handlers of Slack's AI app surfaces (the idea of Bolt's `Assistant`), each optional. */
export interface SlackAssistantHandlers {
  /** `assistant_thread_started`: greet, `setSuggestedPrompts`. */
  readonly threadStarted?: Handler;
  /** `assistant_thread_context_changed`: the user moved; `assistantThreadOf(event).context`. */
  readonly threadContextChanged?: Handler;
  /** A user's message in an assistant thread: `setStatus`, then `ctx.stream` the answer. */
  readonly userMessage?: Handler;
}

/**
 * Registers `handlers` on `runtime` for the assistant events of the Slack adapter called
 * `adapter` (default: any adapter's). An assistant thread message is also a `message` event:
 * `onMessage` handlers see it too. Returns one function that unregisters all of them.
 */
export function onSlackAssistant(
  runtime: Pick<Runtime, 'on'>,
  handlers: SlackAssistantHandlers,
  options: { readonly adapter?: string } = {},
): () => void {
  const { adapter } = options;
  const ours = (name: string) => adapter === undefined || name === adapter;
  const off: (() => void)[] = [];
  if (handlers.threadStarted) {
    off.push(
      runtime.on((e) => ours(e.adapter) && isAssistantThreadStarted(e), handlers.threadStarted),
    );
  }
  if (handlers.threadContextChanged) {
    off.push(
      runtime.on(
        (e) => ours(e.adapter) && isAssistantThreadContextChanged(e),
        handlers.threadContextChanged,
      ),
    );
  }
  if (handlers.userMessage) {
    off.push(
      runtime.on((e) => ours(e.adapter) && isAssistantThreadMessage(e), handlers.userMessage),
    );
  }
  return () => {
    for (const unregister of off) unregister();
  };
}
