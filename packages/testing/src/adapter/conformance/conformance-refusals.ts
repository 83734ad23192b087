/**
 * The answer table, row by row (docs/contract.md §9): each shape accepted as its row says; refused as its row
 * says when the bound is saturated (sync shapes: accepted, there is no cap), during shutdown and
 * when the State cannot mark it; a refused delivery is never marked, so the same delivery is
 * accepted later.
 */
import { expect, it } from 'vitest';
import { unreachableState } from '../../support/state-with.js';
import type { ConformanceBot, ConformanceShape } from './conformance-options.js';
import {
  CONFORMANCE_BUSY_TEXT,
  CONFORMANCE_UNAVAILABLE_TEXT,
  type DefineTest,
  type Sessions,
} from './conformance-session.js';
import {
  expectAcceptedAndHandled,
  expectAnswer,
  expectFollowUp,
  rejectedEventId,
} from './expect-answer.js';

/** Per shape: accepted, saturated and shutdown rows. */
export function defineRefusalTests<P, B extends ConformanceBot>(
  sessions: Sessions,
  shape: ConformanceShape<P, B>,
  test: DefineTest = it,
): void {
  defineAcceptedTest(sessions, shape, test);
  defineSaturatedTest(sessions, shape, test);
  defineShutdownRefusalTest(sessions, shape, test);
  defineUnavailableStateTest(sessions, shape, test);
}

/** Accepted as the row says, handled once, no platform call. */
export function defineAcceptedTest<P, B extends ConformanceBot>(
  sessions: Sessions,
  shape: ConformanceShape<P, B>,
  test: DefineTest = it,
): void {
  test('is acknowledged as its row says when accepted, handled once, with no platform call', async () => {
    const session = await sessions.open();
    await expectAcceptedAndHandled(session, shape.payload(session.bot as B), shape.accepted);
    expect(await session.bot.platformCalls()).toEqual([]);
  });
}

/** With the bound saturated: refused as the row says and left unmarked (sync shapes: accepted). */
export function defineSaturatedTest<P, B extends ConformanceBot>(
  sessions: Sessions,
  shape: ConformanceShape<P, B>,
  test: DefineTest = it,
): void {
  if (shape.sync === true) {
    test('is accepted while the bound is saturated (sync dispatch has no admission cap)', async () => {
      const session = await sessions.open({ runtime: { maxDetached: 1 } });
      const release = await session.hold();
      await expectAcceptedAndHandled(session, shape.payload(session.bot as B), shape.accepted);
      expect(session.observations.filter((o) => o.type === 'admission_rejected')).toEqual([]);
      await release();
    });
  } else {
    test('is refused as its row says while the bound is saturated, unmarked: sent again after capacity frees, it is accepted', async () => {
      const session = await sessions.open({ runtime: { maxDetached: 1 } });
      const release = await session.hold();
      const payload = shape.payload(session.bot as B);
      const expected = shape.refused(CONFORMANCE_BUSY_TEXT, 'busy');
      await expectAnswer(await session.send(payload, 'valid'), expected);
      await rejectedEventId(session, 'capacity');
      await expectFollowUp(session, expected);
      expect(session.handled).toEqual([]);

      await release();
      await expectAcceptedAndHandled(session, payload, shape.accepted);
    });
  }
}

/** During shutdown: the row's refusal with unavailable wording, left unmarked. */
export function defineShutdownRefusalTest<P, B extends ConformanceBot>(
  sessions: Sessions,
  shape: ConformanceShape<P, B>,
  test: DefineTest = it,
): void {
  test('gets the shutdown refusal during shutdown, unmarked: a runtime on the same State accepts it later', async () => {
    const session = await sessions.open();
    const release = await session.hold();
    const stopping = session.bot.runtime.shutdown({ graceMs: 60_000 });
    const payload = shape.payload(session.bot as B);
    const expected = shape.refused(CONFORMANCE_UNAVAILABLE_TEXT, 'unavailable');
    await expectAnswer(await session.send(payload, 'valid'), expected);
    const id = await rejectedEventId(session, 'shutdown');
    await release();
    await stopping;
    await expectFollowUp(session, expected);
    expect(session.handled).toEqual([]);
    expect(
      session.observations.filter((o) => o.type === 'dispatch_admitted' && o.event.id === id),
    ).toEqual([]);

    const next = await sessions.open({ state: session.bot.state });
    await expectAcceptedAndHandled(next, payload, shape.accepted);
  });
}

/** With a State that cannot mark (a prelude error): the row's refusal with unavailable wording. */
export function defineUnavailableStateTest<P, B extends ConformanceBot>(
  sessions: Sessions,
  shape: ConformanceShape<P, B>,
  test: DefineTest = it,
): void {
  test('gets the refusal with unavailable wording when the State cannot mark it (prelude error), unhandled', async () => {
    const session = await sessions.open({ state: unreachableState() });
    const expected = shape.refused(CONFORMANCE_UNAVAILABLE_TEXT, 'unavailable');
    await expectAnswer(await session.send(shape.payload(session.bot as B), 'valid'), expected);
    await session.observed((o) => o.type === 'prelude_error');
    await expectFollowUp(session, expected);
    expect(session.handled).toEqual([]);
  });
}
