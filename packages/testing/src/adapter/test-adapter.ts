import type {
  Adapter,
  DispatchMode,
  DispatchOptions,
  DispatchResult,
  EventKind,
  HistoryMessage,
  HistoryReader,
  OutboundMessage,
  PostedMessage,
  RtEvent,
  StreamReplier,
} from '@rt/core';
import type { ConversationActions, RuntimeHandle } from '@rt/core/adapter';
import { streamReplyWith } from '@rt/core/adapter';
import { type ActedByBot, testActions } from './test-actions.js';
import { TestStreamWriter } from './test-stream-writer.js';

/** What a bot posted through the test adapter. */
export interface PostedByBot {
  readonly channel: string;
  readonly thread: string | undefined;
  readonly text: string;
  readonly extra?: Readonly<Record<string, unknown>>;
  /** The event the bot replied to. */
  readonly inReplyTo: RtEvent;
}

/** Options of `createTestAdapter`. */
export interface TestAdapterOptions {
  /** Adapter name (becomes `RtEvent.adapter`). Default `test`. */
  readonly name?: string;
  /** Tenant used when an event does not name one. Default `T-test`. */
  readonly tenant?: string;
  /** Dispatch mode per event shape, as a real adapter would declare (e.g. a modal is sync). */
  readonly shapeModes?: Readonly<Record<string, DispatchMode>>;
  /** Thread history served through the `HistoryReader` capability, keyed by thread id. */
  readonly history?: Readonly<Record<string, HistoryMessage[]>>;
}

/** A synthetic event for `send`: the adapter fills in identity and defaults. */
export type SyntheticEvent = Partial<RtEvent> & { readonly kind?: EventKind };

/**
 * An in-memory adapter for testing bots without a network. `send` dispatches a synthetic event
 * through the runtime exactly as a platform adapter would; `posted` records everything handlers
 * posted with `ctx.reply` (and `ctx.stream`: the reply's text grows in place as it streams);
 * `settled()` waits for every accepted delivery to finish.
 */
export interface TestAdapter extends Adapter, HistoryReader, StreamReplier {
  /** Every message the bot posted, in order (`ctx.reply`, `ctx.post`, `ctx.dm`). */
  readonly posted: readonly PostedByBot[];
  /** Every conversation action the bot took (`ctx.react`, `ctx.ephemeral`, ...), in order. */
  readonly acted: readonly ActedByBot[];
  /** The recording conversation actions behind `ctx` (nothing rendered, nothing refused). */
  readonly actions: ConversationActions;
  /** Dispatches an event; ids are unique unless you pass one. */
  send(event?: SyntheticEvent, options?: DispatchOptions): Promise<DispatchResult>;
  /** A message in a channel (`thread` defaults to a new one). */
  message(text: string, event?: SyntheticEvent): Promise<DispatchResult>;
  /** A mention of the bot. */
  mention(text: string, event?: SyntheticEvent): Promise<DispatchResult>;
  /** A command by name with its text. */
  command(name: string, text?: string, event?: SyntheticEvent): Promise<DispatchResult>;
  /** An interactive action by id. */
  action(actionId: string, event?: SyntheticEvent): Promise<DispatchResult>;
  /** Resolves when every delivery accepted so far has reached its terminal outcome. */
  settled(): Promise<void>;
  /** Forgets what was posted. */
  clear(): void;
}

/** Creates a test adapter. Register it with `createRuntime({ adapters: [adapter] })`. */
export function createTestAdapter(options: TestAdapterOptions = {}): TestAdapter {
  const name = options.name ?? 'test';
  const tenant = options.tenant ?? 'T-test';
  const posted: PostedByBot[] = [];
  const acted: ActedByBot[] = [];
  const pending = new Set<Promise<unknown>>();
  let runtime: RuntimeHandle | undefined;
  let sequence = 0;

  const build = (event: SyntheticEvent): RtEvent => {
    sequence += 1;
    const id = event.id ?? `${name}-ev-${sequence}`;
    return {
      kind: 'message',
      shape: event.kind ?? 'message',
      channel: 'C-test',
      thread: event.thread ?? `thread-${sequence}`,
      user: 'U-test',
      receivedAt: Date.now(),
      payload: {},
      ...event,
      adapter: name,
      tenant: event.tenant ?? tenant,
      id,
    };
  };

  const send = async (event: SyntheticEvent = {}, dispatchOptions?: DispatchOptions) => {
    if (!runtime) throw new Error(`test adapter "${name}" is not registered with a runtime`);
    const result = await runtime.dispatch(build(event), dispatchOptions);
    if (result.status === 'accepted') {
      const tracked = result.settled.finally(() => pending.delete(tracked));
      pending.add(tracked);
    }
    return result;
  };

  return {
    name,
    defaultLockScope: 'thread',
    posted,
    acted,
    actions: testActions(posted, acted),
    attach(handle) {
      runtime = handle;
    },
    dispatchModeFor(event) {
      return options.shapeModes?.[event.shape];
    },
    async reply(event: RtEvent, message: OutboundMessage): Promise<PostedMessage> {
      const channel = event.channel ?? 'C-test';
      posted.push({
        channel,
        thread: event.thread,
        text: message.text,
        ...(message.extra ? { extra: message.extra } : {}),
        inReplyTo: event,
      });
      return { channel, id: `posted-${posted.length}`, thread: event.thread };
    },
    streamReply(event, source, streamOptions) {
      const writer = new TestStreamWriter(event, (post) => {
        posted.push(post);
        return { channel: post.channel, id: `posted-${posted.length}`, thread: event.thread };
      });
      return streamReplyWith({ runtime, adapter: name, event, writer }, source, streamOptions);
    },
    async readHistory(event, historyOptions) {
      const messages = options.history?.[event.thread ?? ''] ?? [];
      return historyOptions?.limit === undefined
        ? [...messages]
        : messages.slice(-historyOptions.limit);
    },
    send,
    message: (text, event = {}) => send({ kind: 'message', text, ...event }),
    mention: (text, event = {}) => send({ kind: 'mention', text, ...event }),
    command: (command, text = '', event = {}) =>
      send({ kind: 'command', command, text, shape: 'command', ...event }),
    action: (actionId, event = {}) => send({ kind: 'action', actionId, shape: 'action', ...event }),
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    clear() {
      posted.length = 0;
      acted.length = 0;
    },
  };
}
