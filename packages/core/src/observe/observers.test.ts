import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '../outcomes/outcome.js';
import { logObserver } from './default-logger.js';
import type { LogFields, RtLogger } from './logger.js';
import type { Observation } from './observation.js';
import { ObserverSet, withInterest } from './observers.js';

const EVENT = {
  adapter: 'slack',
  tenant: 'T1',
  id: 'Ev1',
  kind: 'message',
  shape: 'event_callback',
};

/** One observation of every kind the default logger may turn into a line, and some it may not. */
const SAMPLES = [
  ...OUTCOMES.map(
    (outcome) =>
      ({
        type: 'dispatch_finished',
        at: 1,
        receivedAt: 1,
        event: EVENT,
        mode: 'deferred',
        outcome,
        durationMs: 1,
        ...(outcome === 'failed' ? { error: new Error('boom') } : {}),
      }) as unknown as Observation,
  ),
  { type: 'dispatch_admitted', at: 1, receivedAt: 1, event: EVENT, mode: 'deferred' },
  ...(['capacity', 'tenant_capacity', 'shutdown'] as const).map(
    (reason) =>
      ({
        type: 'admission_rejected',
        at: 1,
        receivedAt: 1,
        event: EVENT,
        adapter: 'slack',
        tenant: 'T1',
        reason,
        mode: 'deferred',
      }) as unknown as Observation,
  ),
  { type: 'prelude_error', at: 1, event: EVENT, error: new Error('x') } as unknown as Observation,
  { type: 'state_error', at: 1, operation: 'mark', key: 'k', error: new Error('x') } as never,
  { type: 'lease_lost', at: 1, lockKey: 'k', fence: 1, error: new Error('x') } as never,
  { type: 'adapter_notice', at: 1, adapter: 'slack', name: 'request_failed' } as never,
  { type: 'conversation_action', at: 1, event: EVENT, action: 'reply', outcome: 'failed' } as never,
  { type: 'shutdown_started', at: 1 } as never,
] as unknown as Observation[];

function countingLogger(): RtLogger & { lines: number } {
  const logger = {
    lines: 0,
    warn: (_fields: LogFields, _message: string) => {
      logger.lines += 1;
    },
    error: (_fields: LogFields, _message: string) => {
      logger.lines += 1;
    },
  };
  return logger;
}

describe('ObserverSet interests', () => {
  it('reads everything when any observer has no interest', () => {
    const marked = withInterest(() => {}, { types: new Set(['lease_lost']), outcomes: new Set() });
    const set = new ObserverSet([marked, () => {}]);
    expect(set.wants('dispatch_admitted')).toBe(true);
    expect(set.wantsFinished('completed')).toBe(true);
  });

  it('with only interested observers, wants just their types and outcomes', () => {
    const set = new ObserverSet([
      withInterest(() => {}, {
        types: new Set(['dispatch_finished']),
        outcomes: new Set(['failed']),
      }),
      withInterest(() => {}, { types: new Set(['lease_lost']), outcomes: new Set(['preempted']) }),
    ]);
    expect(set.wants('dispatch_admitted')).toBe(false);
    expect(set.wants('lease_lost')).toBe(true);
    expect(set.wantsFinished('completed')).toBe(false);
    expect(set.wantsFinished('failed')).toBe(true);
    expect(set.wantsFinished('preempted')).toBe(true);
    expect(new ObserverSet([]).wants('lease_lost')).toBe(false);
  });

  it("the default logger's interest covers every observation it writes a line for", () => {
    for (const observation of SAMPLES) {
      const logger = countingLogger();
      const observer = logObserver(logger);
      observer(observation);
      if (logger.lines === 0) continue;
      const set = new ObserverSet([observer]);
      expect(set.wants(observation.type), observation.type).toBe(true);
      if (observation.type === 'dispatch_finished') {
        expect(set.wantsFinished(observation.outcome), observation.outcome).toBe(true);
      }
    }
  });

  it('the default logger alone asks for no admitted or completed delivery', () => {
    const set = new ObserverSet([logObserver(countingLogger())]);
    expect(set.wants('dispatch_admitted')).toBe(false);
    expect(set.wantsFinished('completed')).toBe(false);
    expect(set.wantsFinished('duplicate')).toBe(false);
    expect(set.wantsFinished('failed')).toBe(true);
    expect(set.wants('admission_rejected')).toBe(true);
  });
});
