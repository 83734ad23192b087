/**
 * One bot under the conformance suite: the suite's handler and observation log on a bot from the
 * adapter's factory, plus the steps every check uses (send, saturate, wait for an observation).
 */
import type { FinishedDelivery, Observation, RtEvent, State } from '@rt/core';
import { afterEach } from 'vitest';
import { type Deferred, deferred } from '../../support/deferred.js';
import { observationLog } from '../../support/observation-log.js';
import type {
  AdapterConformanceOptions,
  ConformanceBot,
  ConformanceRuntimeOptions,
  ConformanceSignature,
  ReceivedAnswer,
} from './conformance-options.js';

/** The busy text every bot is configured with (`RefusalWording` `busy`), so rows can assert it. */
export const CONFORMANCE_BUSY_TEXT = 'conformance: busy right now';
/** The unavailable text every bot is configured with (wording `unavailable`: shutdown, State down). */
export const CONFORMANCE_UNAVAILABLE_TEXT = 'conformance: unavailable right now';

/** The shape of the suite's own held delivery (never a platform shape). */
export const HOLD_SHAPE = 'rt_conformance_hold';

/**
 * How a check is registered: vitest's `it` (the default), or `it.fails` in the suite's own tests,
 * which prove each check fails against an adapter that breaks its rule.
 */
export type DefineTest = (name: string, body: () => Promise<void>) => void;

/** The sessions of one `describe` (see `createSessions`). */
export type Sessions = ReturnType<typeof createSessions>;

/** A bot with the suite's handler and observation log. */
export interface Session {
  readonly bot: ConformanceBot;
  readonly observations: readonly Observation[];
  /** Events the suite's handler ran for (its held deliveries excluded), in order. */
  readonly handled: readonly RtEvent[];
  /** Sends `payload` signed as `signature` and reads the answer. */
  send(payload: unknown, signature: ConformanceSignature): Promise<ReceivedAnswer>;
  /** Sends a ready request and reads the answer. */
  sendRequest(request: Request): Promise<ReceivedAnswer>;
  /**
   * Resolves with the first observation matching `predicate` among those emitted from index
   * `from` of `observations` on (default 0: past or future).
   */
  observed(predicate: (observation: Observation) => boolean, from?: number): Promise<Observation>;
  /** Resolves once `condition()` holds, checked now and after every observation. */
  until(condition: () => boolean): Promise<void>;
  /**
   * Dispatches one deferred delivery of the suite's own (through `runtime.dispatch`, in its own
   * conversation) whose handler is held: with `maxDetached: 1` it saturates the bound; during
   * shutdown it keeps a handler running. Resolves its release, which lets the handler return and
   * resolves once the delivery has its outcome (its slot is free again).
   */
  hold(): Promise<() => Promise<FinishedDelivery>>;
  /** `runtime.stats().received`: every dispatch call so far. */
  received(): number;
}

/** Reads a response once into a `ReceivedAnswer`. */
export async function readAnswer(response: Response): Promise<ReceivedAnswer> {
  const text = await response.text();
  const isJson = /^application\/([\w.+-]*\+)?json\b/i.test(
    response.headers.get('content-type') ?? '',
  );
  let json: unknown;
  if (isJson && text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`answer declared JSON but its body is not: ${JSON.stringify(text)}`);
    }
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * Opens sessions for the tests of one `describe` and registers the `afterEach` that releases
 * what a test held, shuts each runtime down and closes its bot (newest first, so a bot sharing
 * another's State closes before the State's owner). Every bot is closed even when one fails; the
 * first failure then fails the test.
 */
export function createSessions<P, B extends ConformanceBot = ConformanceBot>(
  options: AdapterConformanceOptions<P, B>,
): {
  open(overrides?: { runtime?: ConformanceRuntimeOptions; state?: State }): Promise<Session>;
} {
  const open: { session: Session; holds: Deferred<void>[] }[] = [];
  afterEach(async () => {
    const failures: unknown[] = [];
    for (const { session, holds } of open.splice(0).reverse()) {
      for (const hold of holds) hold.resolve();
      try {
        await session.bot.runtime.shutdown({ graceMs: 0 });
        await session.bot.close();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  });

  return {
    async open(overrides = {}) {
      const log = observationLog();
      const handled: RtEvent[] = [];
      const holds: Deferred<void>[] = [];
      const runtimeOptions = overrides.runtime ?? {};
      const bot = await options.createBot({
        runtime: {
          ...runtimeOptions,
          observers: [...(runtimeOptions.observers ?? []), log.observer],
        },
        busyText: CONFORMANCE_BUSY_TEXT,
        unavailableText: CONFORMANCE_UNAVAILABLE_TEXT,
        ...(overrides.state === undefined ? {} : { state: overrides.state }),
      });
      const held = new Map<string, Promise<void>>();
      bot.runtime.on(
        () => true,
        async (ctx) => {
          const hold = held.get(ctx.event.id);
          if (ctx.event.shape === HOLD_SHAPE && hold !== undefined) {
            await hold;
            return undefined;
          }
          handled.push(ctx.event);
          return options.answer?.(ctx.event);
        },
      );
      const sendRequest = async (request: Request) => readAnswer(await bot.send(request));
      let holdCount = 0;
      const session: Session = {
        bot,
        observations: log.observations,
        handled,
        sendRequest,
        send: (payload, signature) => sendRequest(options.request(payload as P, signature)),
        observed: (predicate, from = 0) => log.observed(predicate, { from }),
        until: (condition) => log.until(condition),
        async hold() {
          holdCount += 1;
          const hold = deferred<void>();
          holds.push(hold);
          const id = `rt-conformance-hold-${holdCount}`;
          held.set(id, hold.promise);
          const result = await bot.runtime.dispatch({
            adapter: bot.adapterName,
            tenant: 'rt-conformance',
            id,
            kind: 'message',
            shape: HOLD_SHAPE,
            channel: `rt-conformance-hold-${holdCount}`,
            thread: `rt-conformance-hold-${holdCount}`,
            text: '',
            receivedAt: Date.now(),
            payload: {},
          });
          if (result.status !== 'accepted') {
            throw new Error(
              `the suite's held delivery was not accepted (${result.status}): build the runtime with the options the suite passes, and a deferred default mode`,
            );
          }
          return () => {
            hold.resolve();
            return result.settled;
          };
        },
        received: () => bot.runtime.stats().received,
      };
      open.push({ session, holds });
      return session;
    },
  };
}
