import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeHandle } from '../adapter/adapter.js';
import type { DispatchOptions, DispatchResult } from '../dispatch/dispatch-result.js';
import { AdmissionRejectedError, PreludeError } from '../errors.js';
import type { DispatchMode } from '../observe/observation.js';
import type { FinishedDelivery } from '../outcomes/outcome.js';
import { deferred, makeEvent } from '../test-support/test-adapter.js';
import { startAckClock } from './ack-clock.js';
import { answerWithin } from './answer-within.js';

/** A runtime handle whose dispatch the test settles by hand. */
function handleWith(
  dispatch: (options?: DispatchOptions) => Promise<DispatchResult>,
  mode: DispatchMode = 'deferred',
) {
  const calls: (DispatchOptions | undefined)[] = [];
  const runtime: RuntimeHandle = {
    dispatch: (_event, options) => {
      calls.push(options);
      return dispatch(options);
    },
    observe: () => {},
    modeFor: () => mode,
    shuttingDown: false,
  };
  return { runtime, calls };
}

type Answer = string;

function mapping() {
  const seen = { unexpected: [] as unknown[], deadline: 0, unrun: [] as FinishedDelivery[] };
  return {
    seen,
    answer: (result: DispatchResult): Answer => `answer:${result.status}`,
    refuse: (kind: 'busy' | 'unavailable'): Answer => `refuse:${kind}`,
    onUnexpected: (error: unknown) => void seen.unexpected.push(error),
    onDeadline: () => {
      seen.deadline += 1;
    },
    onAcceptedUnrun: (finished: FinishedDelivery) => void seen.unrun.push(finished),
  };
}

const finished = (outcome: FinishedDelivery['outcome']): FinishedDelivery => ({
  outcome,
  event: { adapter: 'test', tenant: 'T1', id: 'e', kind: 'message', shape: 'message' },
  durationMs: 1,
});

describe('answerWithin', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a resolved dispatch with its mapping', async () => {
    const { runtime } = handleWith(async () => ({ status: 'duplicate' }));
    const clock = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    const m = mapping();
    await expect(answerWithin({ runtime, event: makeEvent(), clock, ...m })).resolves.toBe(
      'answer:duplicate',
    );
  });

  it('hands sync dispatches the sync signal and deferred ones nothing', async () => {
    const sync = handleWith(async () => ({ status: 'completed', outcome: 'completed' }), 'sync');
    const deferredMode = handleWith(async () => ({ status: 'unrouted' }));
    const clock = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    await answerWithin({ runtime: sync.runtime, event: makeEvent(), clock, ...mapping() });
    await answerWithin({ runtime: deferredMode.runtime, event: makeEvent(), clock, ...mapping() });
    expect(sync.calls[0]?.signal).toBe(clock.syncSignal);
    expect(deferredMode.calls[0]).toBeUndefined();
  });

  it('maps refusals by their classification and observes only the unexpected ones', async () => {
    const clock = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    const errors = [
      new AdmissionRejectedError('capacity', 'test', 'T1'),
      new AdmissionRejectedError('shutdown', 'test', 'T1'),
      new PreludeError('mark failed'),
      new Error('bug'),
    ];
    const m = mapping();
    const answers = [];
    for (const error of errors) {
      const { runtime } = handleWith(() => Promise.reject(error));
      answers.push(await answerWithin({ runtime, event: makeEvent(), clock, ...m }));
    }
    expect(answers).toEqual([
      'refuse:busy',
      'refuse:unavailable',
      'refuse:unavailable',
      'refuse:unavailable',
    ]);
    expect(m.seen.unexpected).toEqual([errors[3]]);
  });

  it('answers unavailable at the deadline counted from receipt and suppresses the late result', async () => {
    const late = deferred<DispatchResult>();
    const { runtime } = handleWith(() => late.promise);
    const receivedAt = Date.now() - 100;
    const clock = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200, receivedAt });
    const m = mapping();
    let answered: string | undefined;
    void answerWithin({ runtime, event: makeEvent(), clock, ...m }).then((a) => {
      answered = a;
    });
    await vi.advanceTimersByTimeAsync(199);
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answered).toBe('refuse:unavailable');
    expect(m.seen.deadline).toBe(1);
    const settled = deferred<FinishedDelivery>();
    late.resolve({ status: 'accepted', settled: settled.promise });
    settled.resolve(finished('dropped'));
    await vi.advanceTimersByTimeAsync(0);
    expect(m.seen.unrun).toEqual([]);
    expect(m.seen.deadline).toBe(1);
  });

  it('reports an accepted delivery that ends dropped, and not one that completes', async () => {
    const clock = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    const m = mapping();
    const dropped = deferred<FinishedDelivery>();
    const completed = deferred<FinishedDelivery>();
    for (const settled of [dropped, completed]) {
      const { runtime } = handleWith(async () => ({
        status: 'accepted',
        settled: settled.promise,
      }));
      expect(await answerWithin({ runtime, event: makeEvent(), clock, ...m })).toBe(
        'answer:accepted',
      );
    }
    dropped.resolve(finished('dropped'));
    completed.resolve(finished('completed'));
    await vi.advanceTimersByTimeAsync(0);
    expect(m.seen.unrun.map((f) => f.outcome)).toEqual(['dropped']);
  });

  it('answers unavailable and observes it when the answer mapping throws', async () => {
    const clock = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    const m = mapping();
    const bug = new Error('mapping bug');
    const { runtime } = handleWith(async () => ({ status: 'unrouted' }));
    const answer = await answerWithin({
      runtime,
      event: makeEvent(),
      clock,
      ...m,
      answer: () => {
        throw bug;
      },
    });
    expect(answer).toBe('refuse:unavailable');
    expect(m.seen.unexpected).toEqual([bug]);
  });

  it('calls its hooks as methods of the options object (a class instance keeps its this)', async () => {
    const clock = startAckClock({ ackDeadlineMs: 300, syncDeadlineMs: 200 });
    const dropped = deferred<FinishedDelivery>();
    const { runtime } = handleWith(async () => ({ status: 'accepted', settled: dropped.promise }));
    class Hooks {
      readonly unrun: FinishedDelivery[] = [];
      readonly runtime = runtime;
      readonly event = makeEvent();
      readonly clock = clock;
      answer(result: DispatchResult): Answer {
        return `answer:${result.status}`;
      }
      refuse(kind: 'busy' | 'unavailable'): Answer {
        return `refuse:${kind}`;
      }
      onAcceptedUnrun(finished: FinishedDelivery): void {
        this.unrun.push(finished);
      }
    }
    const hooks = new Hooks();
    expect(await answerWithin(hooks)).toBe('answer:accepted');
    dropped.resolve(finished('dropped'));
    await vi.advanceTimersByTimeAsync(0);
    expect(hooks.unrun.map((f) => f.outcome)).toEqual(['dropped']);
  });
});
