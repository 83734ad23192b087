import type { RtEvent, State } from '@rt/core';
import { createMemoryState } from '@rt/state-memory';
import { deferred, stateWith } from '@rt/testing';
import {
  closeHttpTransports,
  failOnUnhandledRejections,
  HTTP_TRANSPORTS,
} from '@rt/testing/adapter';
import { buildMessageEvent, buildSlashCommand, buildViewSubmission } from '@rt/testing/slack';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';

const UNAVAILABLE = 'Unavailable: try again soon.';

/** A promise plus whether it has settled yet. */
function watch<T>(promise: Promise<T>): { readonly promise: Promise<T>; done: boolean } {
  const watched = { promise, done: false };
  promise.then(
    () => {
      watched.done = true;
    },
    () => {
      watched.done = true;
    },
  );
  return watched;
}

/** A memory State whose first `markEvent` waits for `release` and then lands or fails. */
function slowMarkState(): State & {
  release(outcome: 'land' | 'fail'): void;
  /** Resolves once the first `markEvent` was called (the delivery has arrived). */
  readonly called: Promise<void>;
} {
  const gate = deferred<'land' | 'fail'>();
  const called = deferred();
  let calls = 0;
  const state = stateWith(createMemoryState(), (inner) => ({
    markEvent: async (key, ttl) => {
      calls += 1;
      called.resolve();
      if (calls === 1 && (await gate.promise) === 'fail') throw new Error('state unreachable');
      return inner.markEvent(key, ttl);
    },
  }));
  return { ...state, release: (outcome) => gate.resolve(outcome), called: called.promise };
}

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('the acknowledgement deadline', () => {
    let h: Harness;
    let gate = deferred();
    failOnUnhandledRejections();
    beforeEach(() => {
      gate = deferred();
    });
    afterEach(async () => {
      vi.useRealTimers();
      gate.resolve();
      await h.close();
    });

    async function start(options: Parameters<typeof startHarness>[0] = {}): Promise<void> {
      h = await startHarness({
        transport,
        ...options,
        // The adapter's clock reads the global Date on each call, so it is the faked one below:
        // the default (`Date.now`, taken when the adapter is built) would stay the real clock,
        // and real time spent between receipt and the deadlines' arming would move them.
        adapter: { unavailableText: UNAVAILABLE, clock: () => Date.now(), ...options.adapter },
      });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    }

    it('answers a sync view_submission whose handler ignores its signal at ackDeadlineMs, once', async () => {
      await start();
      let aborted = false;
      let finished = false;
      const entered = deferred();
      h.runtime.onFormSubmit('modal_cb', async (ctx) => {
        entered.resolve();
        ctx.signal.addEventListener('abort', () => {
          aborted = true;
        });
        await gate.promise;
        finished = true;
        return { response_action: 'clear' };
      });
      const payload = buildViewSubmission();
      const answer = watch(h.send(payload));
      // Arrival takes no fake time: the deadlines count from it.
      await entered.promise;

      await vi.advanceTimersByTimeAsync(1999);
      expect(aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      // syncDeadlineMs (default 2000) fired: the handler was asked to stop, and ignores it.
      expect(aborted).toBe(true);
      await vi.advanceTimersByTimeAsync(499);
      expect(answer.done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      // Out at the deadline with no more fake time (the native listener writes at the turn's end).
      const response = await answer.promise;
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toEqual({
        response_action: 'errors',
        errors: { input_block: UNAVAILABLE },
      });
      expect(h.observations).toContainEqual(
        expect.objectContaining({
          type: 'adapter_notice',
          name: 'ack_deadline_passed',
          detail: expect.objectContaining({ shape: 'view_submission', deadlineMs: 2500 }),
        }),
      );

      // The handler's late end starts no second answer and no follow-up.
      gate.resolve();
      await h.observed(
        (o) => o.type === 'dispatch_finished' && o.event.shape === 'view_submission',
      );
      expect(finished).toBe(true);
      await h.adapter.drainFollowUps();
      expect(h.fake.calls).toEqual([]);
    });

    it('answers an Events API delivery with a slow mark 503 at the deadline; the late mark makes the retry a duplicate, handled once', async () => {
      const state = slowMarkState();
      await start({ state });
      const handled: RtEvent[] = [];
      h.runtime.onMessage((ctx) => {
        handled.push(ctx.event);
      });
      const event = buildMessageEvent({ text: 'slow mark' });
      const answer = watch(h.send(event));
      await state.called;

      await vi.advanceTimersByTimeAsync(2499);
      expect(answer.done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const response = await answer.promise;
      expect(response.status).toBe(503);
      expect(response.headers.get('x-slack-no-retry')).toBeNull();
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(h.observations).toContainEqual(
        expect.objectContaining({
          name: 'ack_deadline_passed',
          detail: expect.objectContaining({
            shape: 'event_callback',
            eventId: event.data.event_id,
          }),
        }),
      );

      // The mark lands after the 503: the delivery is accepted and handled.
      state.release('land');
      await h.observed((o) => o.type === 'dispatch_finished' && o.outcome === 'completed');
      expect(handled).toHaveLength(1);

      // Slack retries because of the 503: the retry meets the mark.
      const retry = await h.send(event, {
        'x-slack-retry-num': '1',
        'x-slack-retry-reason': 'http_error',
      });
      expect(retry.status).toBe(200);
      await h.observed((o) => o.type === 'dispatch_finished' && o.outcome === 'duplicate');
      expect(handled).toHaveLength(1);
    });

    it('answers a slash command with a slow mark with the unavailable ephemeral at the deadline; a late State failure answers nothing more', async () => {
      const state = slowMarkState();
      await start({ state });
      h.runtime.onCommand('deploy', () => undefined);
      const answer = watch(
        h.send(buildSlashCommand({ command: '/deploy', responseUrl: h.fake.responseUrl() })),
      );
      await state.called;
      await vi.advanceTimersByTimeAsync(2500);
      const response = await answer.promise;
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toEqual({ response_type: 'ephemeral', text: UNAVAILABLE });

      state.release('fail');
      await h.observed((o) => o.type === 'prelude_error');
      await h.adapter.drainFollowUps();
      expect(h.fake.calls).toEqual([]);
      expect(
        h.observations.filter((o) => o.type === 'adapter_notice' && o.name === 'dispatch_error'),
      ).toEqual([]);
    });

    it('counts the deadline on the adapter clock: a clock skewed a minute behind fires nothing early', async () => {
      const state = slowMarkState();
      await start({ state, adapter: { clock: () => Date.now() - 60_000 } });
      h.runtime.onMessage(() => {});
      const answer = watch(h.send(buildMessageEvent({ text: 'skewed' })));
      await state.called;
      await vi.advanceTimersByTimeAsync(2499);
      expect(answer.done).toBe(false);
      state.release('land');
      const response = await answer.promise;
      expect(response.status).toBe(200);
      expect(h.observations.filter((o) => o.type === 'adapter_notice')).toEqual([]);
    });

    it('answers as soon as the dispatch does when it beats the deadline, and raises no notice later', async () => {
      await start();
      h.runtime.onFormSubmit('modal_cb', () => ({ response_action: 'clear' }));
      const response = await h.send(buildViewSubmission());
      expect(await response.json()).toEqual({ response_action: 'clear' });
      await vi.advanceTimersByTimeAsync(5000);
      expect(h.observations.filter((o) => o.type === 'adapter_notice')).toEqual([]);
    });
  });
});
