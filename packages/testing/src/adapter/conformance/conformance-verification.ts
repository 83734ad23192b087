/**
 * Verification and body checks (docs/contract.md §9): a wrong or missing signature gets 401 before anything
 * else, in every runtime state; oversized bodies 413, unparsable ones 400; none dispatched.
 */
import { expect, it } from 'vitest';
import type {
  AdapterConformanceOptions,
  ConformanceBot,
  ConformanceShape,
  ConformanceSignature,
} from './conformance-options.js';
import type { DefineTest, Session, Sessions } from './conformance-session.js';

const UNVERIFIED: readonly ConformanceSignature[] = ['invalid', 'missing'];

/** Sends `shape` with each unverifiable signature: 401, nothing dispatched, nothing handled. */
async function expectRefusedUnverified<P, B extends ConformanceBot>(
  session: Session,
  shape: ConformanceShape<P, B>,
  phase: string,
): Promise<void> {
  for (const signature of UNVERIFIED) {
    const before = session.received();
    const handled = session.handled.length;
    const answer = await session.send(shape.payload(session.bot as B), signature);
    expect(answer.status, `${signature} signature, ${phase}`).toBe(401);
    expect(session.received(), `dispatches after a ${signature} signature, ${phase}`).toBe(before);
    expect(session.handled.length).toBe(handled);
  }
}

/** Per shape: the 401 checks in the idle, saturated and shutting-down runtime. */
export function defineSignatureTests<P, B extends ConformanceBot>(
  sessions: Sessions,
  shape: ConformanceShape<P, B>,
  test: DefineTest = it,
): void {
  test('answers a wrong or missing signature 401 and dispatches nothing: idle, saturated and during shutdown', async () => {
    const session = await sessions.open({ runtime: { maxDetached: 1 } });
    await expectRefusedUnverified(session, shape, 'idle');

    const release = await session.hold();
    await expectRefusedUnverified(session, shape, 'with the bound saturated');

    const stopping = session.bot.runtime.shutdown({ graceMs: 60_000 });
    expect(session.bot.runtime.stats().shuttingDown).toBe(true);
    await expectRefusedUnverified(session, shape, 'during shutdown');
    await release();
    await stopping;
    expect(session.handled).toEqual([]);
  });
}

/** Body limit and parse failures, once per adapter. */
export function defineBodyTests<P, B extends ConformanceBot>(
  sessions: Sessions,
  options: AdapterConformanceOptions<P, B>,
  test: DefineTest = it,
): void {
  defineOversizeTest(sessions, options, test);
  defineUnparsableTests(sessions, options, test);
}

/** A body over the limit: 413 signed, 401 unsigned, never dispatched. */
export function defineOversizeTest<P, B extends ConformanceBot>(
  sessions: Sessions,
  options: AdapterConformanceOptions<P, B>,
  test: DefineTest = it,
): void {
  test('answers a signed body over the limit 413 and an unsigned one 401, dispatching neither', async () => {
    const session = await sessions.open();
    const signed = await session.sendRequest(options.request(options.oversizedPayload(), 'valid'));
    expect(signed.status).toBe(413);
    const unsigned = await session.sendRequest(
      options.request(options.oversizedPayload(), 'missing'),
    );
    expect(unsigned.status).toBe(401);
    expect(session.received()).toBe(0);
  });
}

/** Each unparsable body: 400, never dispatched, no platform call. */
export function defineUnparsableTests<P, B extends ConformanceBot>(
  sessions: Sessions,
  options: AdapterConformanceOptions<P, B>,
  test: DefineTest = it,
): void {
  for (const unparsable of options.unparsable) {
    test(`answers an unparsable body (${unparsable.name}) 400 and dispatches nothing`, async () => {
      const session = await sessions.open();
      const answer = await session.sendRequest(unparsable.request());
      expect(answer.status).toBe(400);
      expect(session.received()).toBe(0);
      expect(await session.bot.platformCalls()).toEqual([]);
    });
  }
}
