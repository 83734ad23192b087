/**
 * What `runAdapterConformance` needs from the adapter under test: a bot factory, requests of each
 * payload shape (signed, wrongly signed, unsigned), and each shape's row of the answer table.
 */
import type { CreateRuntimeOptions, RtEvent, Runtime, State } from '@rt/core';

/** How a conformance request is signed. */
export type ConformanceSignature = 'valid' | 'invalid' | 'missing';

/** The wording a refusal carries: `busy` for a saturated bound, `unavailable` during shutdown. */
export type RefusalWording = 'busy' | 'unavailable';

/** The runtime options the suite passes to `createBot`; the factory adds `state` and `adapters`. */
export type ConformanceRuntimeOptions = Omit<CreateRuntimeOptions, 'state' | 'adapters'>;

/** What the suite asks of each bot it builds. */
export interface ConformanceBotOptions {
  /**
   * Pass these to `createRuntime` unchanged (spread them): `observers` (the suite records every
   * observation) and `maxDetached` (the suite saturates the bound by holding one delivery).
   */
  readonly runtime: ConformanceRuntimeOptions;
  /** Configure the adapter's busy text (refusals while the bound is saturated) with this. */
  readonly busyText: string;
  /** Configure the adapter's unavailable text (refusals during shutdown) with this. */
  readonly unavailableText: string;
  /**
   * Use this State instead of creating one: the suite builds a second bot on the first one's
   * State to prove a refused delivery left no dedupe mark. The bot must not close it.
   */
  readonly state?: State;
}

/** A bot the suite drives: a real runtime with the adapter under test attached. */
export interface ConformanceBot {
  /** The runtime, created with `ConformanceBotOptions.runtime`. Handlers are the suite's. */
  readonly runtime: Runtime;
  /** The State the runtime uses (given or created). */
  readonly state: State;
  /** The adapter's name (its events' `adapter`). */
  readonly adapterName: string;
  /** Delivers `request` to the adapter: its web-standard handler, or a loopback server. */
  send(request: Request): Promise<Response>;
  /**
   * The platform calls the adapter made so far (busy signals, follow-ups: whatever a fake
   * platform recorded), once those in flight have settled. Compared with each row's `followUp`.
   */
  platformCalls(): Promise<readonly unknown[]>;
  /**
   * Releases what the factory created (fake platforms, servers, a State it created; never a
   * State it was given). Called after `runtime.shutdown()` resolved.
   */
  close(): Promise<void>;
}

/** An answer the adapter gave, read once. */
export interface ReceivedAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The body as text (`''` when empty). */
  readonly text: string;
  /** The body parsed, when the content type is JSON; otherwise `undefined`. */
  readonly json: unknown;
}

/** What an answer must look like. */
export interface ExpectedAnswer {
  readonly status: number;
  /** Checks body and headers beyond the status; throw (or use `expect`) to fail. */
  check?(answer: ReceivedAnswer): void | Promise<void>;
}

/** What a refusal must look like, and what it must make the adapter do afterwards. */
export interface ExpectedRefusal extends ExpectedAnswer {
  /**
   * Checks the platform calls the refusal caused (a busy message sent after the ack...), given
   * `bot.platformCalls()` after the refusal. Absent: the refusal must cause no platform call.
   */
  followUp?(calls: readonly unknown[]): void | Promise<void>;
}

/** One payload shape: one row of the adapter's answer table. */
export interface ConformanceShape<P, B extends ConformanceBot = ConformanceBot> {
  /** Names the row in test titles. */
  readonly name: string;
  /**
   * A new payload of this shape with a new identity on every call (`bot` gives access to fakes,
   * e.g. for a `response_url`). The suite may sign the same payload more than once.
   */
  payload(bot: B): P;
  /** The answer when the delivery is accepted (its handler returned `answer(event)`). */
  readonly accepted: ExpectedAnswer;
  /** The refusal with `text` (the configured busy or unavailable text). */
  refused(text: string, wording: RefusalWording): ExpectedRefusal;
  /**
   * True when the adapter dispatches this shape in sync mode: sync dispatch has no admission cap,
   * so the suite expects it accepted while the bound is saturated (and refused only during
   * shutdown). Default false.
   */
  readonly sync?: boolean;
}

/** A request whose body cannot be parsed. */
export interface UnparsableDelivery {
  readonly name: string;
  /** A validly signed request (so it passes verification and fails parsing). */
  request(): Request;
}

/**
 * The input of `runAdapterConformance`, generic over the adapter's payload type `P` and its bot
 * `B` (a `ConformanceBot` plus what the rows need, e.g. the fake platform).
 */
export interface AdapterConformanceOptions<P, B extends ConformanceBot = ConformanceBot> {
  /** Builds a bot per test (sometimes two, sharing a State). */
  createBot(options: ConformanceBotOptions): Promise<B> | B;
  /**
   * A request carrying `payload`: signed as the platform signs (`valid`), with a well-formed but
   * wrong signature (`invalid`), or without signature headers (`missing`). Called again for each
   * send, so it may sign with the current time.
   */
  request(payload: P, signature: ConformanceSignature): Request;
  /** Every payload shape the adapter dispatches, with its answer table row. At least one. */
  readonly shapes: readonly ConformanceShape<P, B>[];
  /**
   * A payload whose encoded body exceeds the adapter's default body limit: signed it must get
   * 413, unsigned 401; never dispatched.
   */
  oversizedPayload(): P;
  /** Bodies that cannot be parsed: each must get 400, undispatched. At least one. */
  readonly unparsable: readonly UnparsableDelivery[];
  /**
   * What the suite's handler returns for `event` (the answer of sync shapes, e.g. a form's
   * response or suggestion choices). Default: nothing.
   */
  answer?(event: RtEvent): unknown;
}
