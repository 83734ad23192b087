/**
 * The answer table, row by row (SPEC 9): each shape accepted as its row says; refused as its row
 * says when the bound is saturated (sync shapes: accepted, there is no cap) and during shutdown;
 * a refused delivery is never marked, so the same delivery is accepted later.
 */
import { expect, it } from 'vitest';
import type { ConformanceShape } from './conformance-options.js';
import {
  CONFORMANCE_BUSY_TEXT,
  CONFORMANCE_UNAVAILABLE_TEXT,
  type createSessions,
} from './conformance-session.js';
import {
  expectAcceptedAndHandled,
  expectAnswer,
  expectFollowUp,
  rejectedEventId,
} from './expect-answer.js';

type Sessions = ReturnType<typeof createSessions>;

/** Per shape: accepted, saturated and shutdown rows. */
export function defineRefusalTests<P>(sessions: Sessions, shape: ConformanceShape<P>): void {
  it('is acknowledged as its row says when accepted, handled once, with no platform call', async () => {
    const session = await sessions.open();
    await expectAcceptedAndHandled(session, shape.payload(session.bot), shape.accepted);
    expect(await session.bot.platformCalls()).toEqual([]);
  });

  if (shape.sync === true) {
    it('is accepted while the bound is saturated (sync dispatch has no admission cap)', async () => {
      const session = await sessions.open({ runtime: { maxDetached: 1 } });
      const release = await session.hold();
      await expectAcceptedAndHandled(session, shape.payload(session.bot), shape.accepted);
      expect(session.observations.filter((o) => o.type === 'admission_rejected')).toEqual([]);
      await release();
    });
  } else {
    it('is refused as its row says while the bound is saturated, unmarked: sent again after capacity frees, it is accepted', async () => {
      const session = await sessions.open({ runtime: { maxDetached: 1 } });
      const release = await session.hold();
      const payload = shape.payload(session.bot);
      const expected = shape.refused(CONFORMANCE_BUSY_TEXT, 'busy');
      await expectAnswer(await session.send(payload, 'valid'), expected);
      await rejectedEventId(session, 'capacity');
      await expectFollowUp(session, expected);
      expect(session.handled).toEqual([]);

      await release();
      await expectAcceptedAndHandled(session, payload, shape.accepted);
    });
  }

  it('gets the shutdown refusal during shutdown, unmarked: a runtime on the same State accepts it later', async () => {
    const session = await sessions.open();
    const release = await session.hold();
    const stopping = session.bot.runtime.shutdown({ graceMs: 60_000 });
    const payload = shape.payload(session.bot);
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
