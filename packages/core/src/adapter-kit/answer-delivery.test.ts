import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeHandle } from '../adapter/adapter.js';
import type { DispatchResult } from '../dispatch/dispatch-result.js';
import { AdmissionRejectedError } from '../errors.js';
import { deferred, makeEvent } from '../test-support/test-adapter.js';
import { answerDelivery } from './answer-delivery.js';
import { DEFAULT_ANSWER_OPTIONS } from './answer-options.js';
import type { KitNoticeName } from './notices.js';

function handle(dispatch: () => Promise<DispatchResult>): RuntimeHandle {
  return { dispatch, observe: () => {}, modeFor: () => 'deferred', shuttingDown: false };
}

const OPTIONS = {
  ackDeadlineMs: 300,
  syncDeadlineMs: 200,
  busyText: DEFAULT_ANSWER_OPTIONS.busyText,
  unavailableText: 'Down.',
};

describe('answerDelivery', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function run(dispatch: () => Promise<DispatchResult>, clock: () => number = Date.now) {
    const notices: { name: KitNoticeName; detail?: unknown }[] = [];
    const event = { ...makeEvent(), receivedAt: clock() };
    const answer = answerDelivery<string>({
      runtime: handle(dispatch),
      event,
      options: { ...OPTIONS, clock },
      notice: (name, detail) => void notices.push({ name, detail }),
      answer: (result) => `answer:${result.status}`,
      refuse: (text, kind) => `refuse:${kind}:${text}`,
    });
    return { answer, notices, event };
  }

  it('refuses a capacity rejection with the busy text, without a notice', async () => {
    const { answer, notices } = run(() =>
      Promise.reject(new AdmissionRejectedError('capacity', 'test', 'T1')),
    );
    expect(await answer).toBe(`refuse:busy:${OPTIONS.busyText}`);
    expect(notices).toEqual([]);
  });

  it('refuses an unexpected error with the unavailable text and a dispatch_error notice', async () => {
    const { answer, notices, event } = run(() => Promise.reject(new Error('bug')));
    expect(await answer).toBe('refuse:unavailable:Down.');
    expect(notices).toEqual([
      { name: 'dispatch_error', detail: { shape: event.shape, eventId: event.id } },
    ]);
  });

  it('counts the deadline on the options clock: a clock a minute behind fires nothing early', async () => {
    const pending = deferred<DispatchResult>();
    const skewed = () => Date.now() - 60_000;
    const { answer, notices, event } = run(() => pending.promise, skewed);
    let settled: string | undefined;
    void answer.then((value) => {
      settled = value;
    });
    await vi.advanceTimersByTimeAsync(299);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe('refuse:unavailable:Down.');
    expect(notices).toEqual([
      {
        name: 'ack_deadline_passed',
        detail: { shape: event.shape, eventId: event.id, deadlineMs: 300 },
      },
    ]);
    pending.resolve({ status: 'duplicate' });
    expect(vi.getTimerCount()).toBe(0);
  });
});
