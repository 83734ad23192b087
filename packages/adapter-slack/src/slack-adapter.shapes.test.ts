import type { Observation, RtEvent } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { deferred, stateWith, unreachableState } from '@rt/testing';
import {
  closeHttpTransports,
  type ExpectedAnswer,
  type ExpectedRefusal,
  HTTP_TRANSPORTS,
  readAnswer,
} from '@rt/testing/adapter';
import { buildBlockSuggestion, buildMessageEvent } from '@rt/testing/slack';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  SLACK_SHAPES,
  type SlackConformanceBot,
  slackConformanceBot,
  syncAnswer,
} from './test-support/answer-table.js';
import { type Harness, startHarness } from './test-support/harness.js';

// The rows are the adapter's answer table (test-support/answer-table.ts), which the conformance
// suite also runs; here each row is checked against Slack-specific setups as well (sync shapes
// made deferred so the admission bound applies to them).

const BUSY = 'Busy: try again soon.';
const UNAVAILABLE = 'Unavailable: try again soon.';

/** Asserts the status, then the row's own check (body, content type, no `x-slack-no-retry`). */
async function expectAnswer(response: Response, expected: ExpectedAnswer): Promise<void> {
  const answer = await readAnswer(response);
  expect(answer.status).toBe(expected.status);
  await expected.check?.(answer);
}

/** Asserts the platform calls after a refusal: the row's follow-up, or none. */
async function expectFollowUp(bot: SlackConformanceBot, expected: ExpectedRefusal): Promise<void> {
  const calls = await bot.platformCalls();
  if (expected.followUp === undefined) {
    expect(calls).toEqual([]);
    return;
  }
  await expected.followUp(calls);
}

const isRejection = (o: Observation) => o.type === 'admission_rejected';

describe.each(SLACK_SHAPES)('$name', (shape) => {
  let h: Harness;
  let gate = deferred();
  afterEach(async () => {
    gate.resolve();
    await h.close();
  });

  it('is acknowledged as the table says when accepted, and handled', async () => {
    h = await startHarness({ adapter: { busyText: BUSY, unavailableText: UNAVAILABLE } });
    const handled = deferred<RtEvent>();
    h.runtime.on(
      () => true,
      (ctx) => {
        handled.resolve(ctx.event);
        return syncAnswer(ctx.event);
      },
    );
    const bot = slackConformanceBot(h);
    const response = await h.send(shape.payload(bot));
    await expectAnswer(response, shape.accepted);
    const event = await handled.promise;
    expect(event.adapter).toBe('slack');
    expect(await bot.platformCalls()).toEqual([]);
  });

  it('answers the table row when the admission bound is saturated, never with x-slack-no-retry', async () => {
    h = await startHarness({
      runtime: { maxDetached: 1 },
      adapter: {
        busyText: BUSY,
        unavailableText: UNAVAILABLE,
        // Sync shapes have no cap: make them deferred so the bound applies.
        dispatchModes: { view_submission: 'deferred', block_suggestion: 'deferred' },
      },
    });
    gate = deferred();
    const seen: RtEvent[] = [];
    h.runtime.on(
      () => true,
      async (ctx) => {
        seen.push(ctx.event);
        if (ctx.event.text === 'hold the slot') await gate.promise;
      },
    );
    const blocker = await h.send(buildMessageEvent({ text: 'hold the slot', channel: 'CBLOCK' }));
    expect(blocker.status).toBe(200);

    const bot = slackConformanceBot(h);
    const response = await h.send(shape.payload(bot));
    const expected = shape.refused(BUSY, 'busy');
    await expectAnswer(response, expected);
    expect(await h.observed(isRejection)).toMatchObject({ reason: 'capacity', adapter: 'slack' });
    await expectFollowUp(bot, expected);

    gate.resolve();
    await h.observed((o) => o.type === 'dispatch_finished' && o.outcome === 'completed');
    expect(seen.map((event) => event.text)).toEqual(['hold the slot']);
  });

  it('answers the table row with unavailable wording once shutdown has started', async () => {
    h = await startHarness({ adapter: { busyText: BUSY, unavailableText: UNAVAILABLE } });
    h.runtime.on(
      () => true,
      (ctx) => syncAnswer(ctx.event),
    );
    const bot = slackConformanceBot(h);
    const stopping = h.runtime.shutdown({ graceMs: 0 });
    const response = await h.send(shape.payload(bot));
    const expected = shape.refused(UNAVAILABLE, 'unavailable');
    await expectAnswer(response, expected);
    expect(await h.observed(isRejection)).toMatchObject({ reason: 'shutdown' });
    await stopping;
    await expectFollowUp(bot, expected);
  });

  it('answers the table row with unavailable wording when the State cannot mark it (prelude error)', async () => {
    h = await startHarness({
      state: unreachableState(),
      adapter: { busyText: BUSY, unavailableText: UNAVAILABLE },
    });
    const seen: RtEvent[] = [];
    h.runtime.on(
      () => true,
      (ctx) => {
        seen.push(ctx.event);
        return syncAnswer(ctx.event);
      },
    );
    const bot = slackConformanceBot(h);
    const response = await h.send(shape.payload(bot));
    const expected = shape.refused(UNAVAILABLE, 'unavailable');
    await expectAnswer(response, expected);
    await h.observed((o) => o.type === 'prelude_error');
    await expectFollowUp(bot, expected);
    expect(seen).toEqual([]);
  });
});

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('the dedupe policy of shapes Slack never redelivers', () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('marks a block_suggestion for 3 s, not for the runtime-wide hour, and answers every keystroke', async () => {
      const marks: [string, number][] = [];
      const state = stateWith(createMemoryState(), (inner) => ({
        markEvent: (key, ttlMs) => {
          marks.push([key, ttlMs]);
          return inner.markEvent(key, ttlMs);
        },
      }));
      h = await startHarness({ transport, state });
      h.runtime.onSuggestion('external_select', (ctx) => syncAnswer(ctx.event));
      h.runtime.onMessage(() => {});
      for (const value of ['a', 'ab', 'ab']) {
        const response = await h.send(buildBlockSuggestion({ value }));
        expect((await readAnswer(response)).json).toMatchObject({ options: [{ value: 'ab-1' }] });
      }
      await h.send(buildMessageEvent());
      expect(marks.map(([, ttlMs]) => ttlMs)).toEqual([3000, 3000, 3000, 3_600_000]);
    });
  });
});
