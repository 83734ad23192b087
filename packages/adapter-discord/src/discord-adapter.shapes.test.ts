import type { RtEvent } from '@rt/core';
import { deferred, unreachableState } from '@rt/testing';
import {
  closeHttpTransports,
  type ExpectedAnswer,
  failOnUnhandledRejections,
  HTTP_TRANSPORTS,
  readAnswer,
} from '@rt/testing/adapter';
import { buildAutocomplete, buildButton, buildChatInputCommand } from '@rt/testing/discord';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BUSY_CHOICE_VALUE } from './respond/busy-choice.js';
import {
  DEFERRED_ROWS,
  EDIT_ORIGINAL,
  FOLLOW_UP,
  refusalBody,
} from './test-support/answer-table.js';
import { type Harness, type HarnessOptions, startHarness } from './test-support/harness.js';

const BUSY = 'Busy, try again.';
const UNAVAILABLE = 'Down for a moment.';

/** Asserts the status, then the row's own check of the callback. */
async function expectAnswer(response: Response, expected: ExpectedAnswer): Promise<void> {
  const answer = await readAnswer(response);
  expect(answer.status).toBe(expected.status);
  await expected.check?.(answer);
}

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('the docs/contract.md §9.2 answer table over HTTP', () => {
    failOnUnhandledRejections();
    let h: Harness;
    let gate = deferred();
    const replied: RtEvent[] = [];

    afterEach(async () => {
      gate.resolve();
      await h.close();
      replied.length = 0;
    });

    async function start(options: HarnessOptions = {}): Promise<void> {
      gate = deferred();
      h = await startHarness({
        transport,
        ...options,
        runtime: { maxDetached: 1, ...options.runtime },
        adapter: { busyText: BUSY, unavailableText: UNAVAILABLE, ...options.adapter },
      });
      h.runtime.on(
        (event) => event.command === 'hold',
        () => gate.promise,
      );
      h.runtime.on(
        (event) => event.command !== 'hold' && event.kind !== 'suggestion',
        async (ctx) => {
          replied.push(ctx.event);
          await ctx.reply(`done: ${ctx.event.kind}`);
        },
      );
      h.runtime.onSuggestion('topic', (ctx) =>
        Array.from({ length: 30 }, (_, i) => ({ name: `${ctx.event.text} ${i}`, value: `v${i}` })),
      );
    }

    async function saturate(): Promise<void> {
      expect(await (await h.send(buildChatInputCommand({ name: 'hold' }))).json()).toEqual({
        type: 5,
      });
      expect(h.runtime.stats().detachedInFlight).toBe(1);
    }

    describe.each(DEFERRED_ROWS)('$name', (row) => {
      it('accepted: answered with its deferred type, and the reply reaches Discord through the interaction token', async () => {
        await start();
        const payload = row.payload();
        const response = await h.send(payload);
        await expectAnswer(response, row.accepted);
        const [call] = await h.fake.waitForCalls(row.replyVia);
        expect(call).toMatchObject({
          params: { application: payload.application_id, token: payload.token },
          token: undefined,
        });
        expect(call?.body).toEqual({
          content: expect.stringMatching(/^done: /),
          allowed_mentions: { parse: ['users'] },
        });
        if (row.replyVia === EDIT_ORIGINAL) expect(call?.params.message).toBe('@original');
        expect(h.fake.calls).toHaveLength(1);
      });

      it('refused with the bound saturated: type 4, flags 64, the busy text; nothing dispatched, no REST call', async () => {
        await start();
        await saturate();
        const response = await h.send(row.payload());
        await expectAnswer(response, row.refused(BUSY, 'busy'));
        expect(h.observations).toContainEqual(
          expect.objectContaining({ type: 'admission_rejected', reason: 'capacity' }),
        );
        expect(replied).toEqual([]);
        expect(h.fake.calls).toEqual([]);
      });

      it('refused during shutdown: type 4, flags 64, the unavailable text', async () => {
        await start();
        void h.runtime.shutdown({ graceMs: 60_000 });
        const response = await h.send(row.payload());
        await expectAnswer(response, row.refused(UNAVAILABLE, 'unavailable'));
        expect(h.fake.calls).toEqual([]);
      });

      it('a prelude error (State unreachable) is answered unavailable, never as handled', async () => {
        await start({ state: unreachableState() });
        const response = await h.send(row.payload());
        await expectAnswer(response, row.refused(UNAVAILABLE, 'unavailable'));
        expect(h.observations).toContainEqual(expect.objectContaining({ type: 'prelude_error' }));
        expect(h.fake.calls).toEqual([]);
      });
    });

    it('an ephemeral decision made per command is fixed in the type 5 and kept by follow-ups', async () => {
      await start({
        runtime: { maxDetached: 8 },
        adapter: { ephemeral: (event) => event.command === 'secret' },
      });
      expect(await (await h.send(buildChatInputCommand({ name: 'secret' }))).json()).toEqual({
        type: 5,
        data: { flags: 64 },
      });
      expect(await (await h.send(buildChatInputCommand({ name: 'public' }))).json()).toEqual({
        type: 5,
      });
      await h.fake.waitForCalls(EDIT_ORIGINAL, 2);
    });

    it('a throwing ephemeral decision answers ephemeral and says so', async () => {
      await start({
        adapter: {
          ephemeral: () => {
            throw new Error('no idea');
          },
        },
      });
      expect(await (await h.send(buildChatInputCommand())).json()).toEqual({
        type: 5,
        data: { flags: 64 },
      });
      expect(h.notices('ephemeral_decision_failed')).toHaveLength(1);
    });

    describe('autocomplete (sync only)', () => {
      it("answers type 8 with the handler's choices, at most 25", async () => {
        await start();
        const response = await h.send(
          buildAutocomplete({ focused: { name: 'topic', value: 'ca' } }),
        );
        const body = (await response.json()) as { type: number; data: { choices: unknown[] } };
        expect(body.type).toBe(8);
        expect(body.data.choices).toHaveLength(25);
        expect(body.data.choices[0]).toEqual({ name: 'ca 0', value: 'v0' });
      });

      it('is not capped by the admission bound: answered with choices while saturated', async () => {
        await start();
        await saturate();
        const body = (await (await h.send(buildAutocomplete())).json()) as {
          data: { choices: unknown[] };
        };
        expect(body.data.choices).toHaveLength(25);
      });

      it('at shutdown: type 8 with one busy choice', async () => {
        await start();
        void h.runtime.shutdown({ graceMs: 60_000 });
        expect(await (await h.send(buildAutocomplete())).json()).toEqual({
          type: 8,
          data: { choices: [{ name: UNAVAILABLE, value: BUSY_CHOICE_VALUE }] },
        });
      });

      it('a numeric option gets no choices rather than a busy value that could pass as input', async () => {
        await start();
        void h.runtime.shutdown({ graceMs: 60_000 });
        expect(
          await (await h.send(buildAutocomplete({ focused: { name: 'count', value: 3 } }))).json(),
        ).toEqual({
          type: 8,
          data: { choices: [] },
        });
      });

      it('with nothing routed: no choices', async () => {
        await start();
        expect(
          await (
            await h.send(buildAutocomplete({ focused: { name: 'other', value: 'x' } }))
          ).json(),
        ).toEqual({
          type: 8,
          data: { choices: [] },
        });
      });
    });

    it('a command submitted with the busy choice is answered busy and not dispatched', async () => {
      await start();
      const response = await h.send(
        buildChatInputCommand({ options: { topic: BUSY_CHOICE_VALUE } }),
      );
      expect(await response.json()).toEqual(refusalBody(BUSY));
      expect(replied).toEqual([]);
      expect(h.notices('busy_choice_submitted')).toHaveLength(1);
    });

    it('an unrouted command gets the ephemeral unrouted text; an unrouted component a silent type 6', async () => {
      h = await startHarness({ transport, adapter: { unroutedText: 'Nobody home.' } });
      expect(await (await h.send(buildChatInputCommand())).json()).toEqual(
        refusalBody('Nobody home.'),
      );
      expect(await (await h.send(buildButton())).json()).toEqual({ type: 6 });
      expect(h.runtime.stats().outcomes.unrouted).toBe(2);
      expect(h.fake.calls).toEqual([]);
    });

    it('a repeated interaction id is answered as handled before and dispatched once', async () => {
      await start({ runtime: { maxDetached: 8 } });
      const payload = buildButton();
      expect(await (await h.send(payload)).json()).toEqual({ type: 6 });
      expect(await (await h.send(payload)).json()).toEqual({ type: 6 });
      await h.fake.waitForCalls(FOLLOW_UP);
      expect(replied).toHaveLength(1);
      expect(h.observations).toContainEqual(
        expect.objectContaining({ type: 'dispatch_finished', outcome: 'duplicate' }),
      );
    });
  });
});
