import { type FakeSlackApi, type FakeSlackMessage, startFakeSlackApi } from '@rt/testing/slack';
import type { SimulatorLedger } from './ledger.js';
import { SLACK_STREAM_REFUSALS } from './slack-simulator.js';

/** What users saw arrive through the Web API and `response_url`s, counted as it arrived. */
export interface WebApiCounters {
  /** Every call the fake received (Web API methods and `response_url` posts). */
  calls: number;
  /** `chat.postMessage` and accepted `chat.startStream` calls (the bot's thread replies). */
  messagesPosted: number;
  /**
   * `response_url` posts carrying the busy text, by the kind of invocation that URL was handed
   * out with (a post to an unknown URL counts as `unknown`).
   */
  readonly busyPosts: { command: number; click: number; unknown: number };
  /** `response_url` posts carrying anything else (a handler's answer). */
  answerPosts: number;
}

/**
 * Slack's side of the bot's outbound traffic: `startFakeSlackApi` from `@rt/testing/slack`
 * (chat.postMessage, the native streaming methods, chat.update, views.*, `response_url`s on
 * 127.0.0.1; `chat.startStream` refused in `SLACK_STREAM_REFUSALS`' channels), plus incremental
 * bookkeeping into the simulator's ledger: each `chat.postMessage` or accepted `chat.startStream`
 * (a new message) to its thread (`thread_ts`), each `response_url` post to the invocation that URL
 * was handed out with.
 */
export class SimulatedWebApi {
  readonly counters: WebApiCounters = {
    calls: 0,
    messagesPosted: 0,
    busyPosts: { command: 0, click: 0, unknown: 0 },
    answerPosts: 0,
  };
  readonly #fake: FakeSlackApi;
  readonly #ledger: SimulatorLedger;
  readonly #busyText: string;
  #cursor = 0;

  private constructor(fake: FakeSlackApi, ledger: SimulatorLedger, busyText: string) {
    this.#fake = fake;
    this.#ledger = ledger;
    this.#busyText = busyText;
  }

  static async start(ledger: SimulatorLedger, busyText: string): Promise<SimulatedWebApi> {
    const fake = await startFakeSlackApi({ streamRefusals: SLACK_STREAM_REFUSALS });
    return new SimulatedWebApi(fake, ledger, busyText);
  }

  /** The adapter's `apiUrl`. */
  get url(): string {
    return this.#fake.url;
  }

  /** Calls the fake refused as Slack would (blocks or views breaking Slack's rules). */
  get rejections(): FakeSlackApi['rejections'] {
    return this.#fake.rejections;
  }

  /** How many calls carried a message payload the fake validated. */
  get validatedPayloads(): number {
    return this.#fake.calls.filter((call) =>
      [
        'chat.postMessage',
        'chat.update',
        'chat.postEphemeral',
        'response_url',
        'views.open',
      ].includes(call.method),
    ).length;
  }

  /** The bot's messages with their final text and stream state, in posting order (the fake's record). */
  messages(): FakeSlackMessage[] {
    return this.#fake.messages.all();
  }

  /** A fresh `response_url` for a slash command or a click. */
  responseUrl(): string {
    return this.#fake.responseUrl();
  }

  /** Folds in the calls that arrived since the last poll. Cheap: it only reads new calls. */
  poll(): void {
    const calls = this.#fake.calls;
    for (; this.#cursor < calls.length; this.#cursor += 1) {
      const call = calls[this.#cursor]!;
      this.counters.calls += 1;
      const refusedStream =
        call.method === 'chat.startStream' &&
        Object.hasOwn(SLACK_STREAM_REFUSALS, String(call.args.channel));
      if (
        call.method === 'chat.postMessage' ||
        (call.method === 'chat.startStream' && !refusedStream)
      ) {
        this.counters.messagesPosted += 1;
        const threadTs = call.args.thread_ts;
        this.#ledger.recordMessage(
          String(call.args.channel),
          typeof threadTs === 'string' ? threadTs : undefined,
        );
      } else if (call.method === 'response_url') {
        const text = typeof call.args.text === 'string' ? call.args.text : '';
        const owner = this.#ledger.recordResponsePost(call.path, text);
        if (text === this.#busyText) this.counters.busyPosts[owner?.kind ?? 'unknown'] += 1;
        else this.counters.answerPosts += 1;
      }
    }
  }

  close(): Promise<void> {
    return this.#fake.close();
  }
}
