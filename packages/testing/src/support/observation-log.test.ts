import { getEventListeners } from 'node:events';
import type { Observation } from '@rt/core';
import { describe, expect, it } from 'vitest';
import { observationLog } from './observation-log.js';

const notice = (name: string): Observation => ({
  type: 'adapter_notice',
  at: 0,
  adapter: 'slack',
  name,
});
const started: Observation = { type: 'shutdown_started', at: 0 } as Observation;

describe('observationLog', () => {
  it('records what its observer is given, in order', () => {
    const log = observationLog();
    log.observer(notice('a'));
    log.observer(started);
    expect(log.observations).toEqual([notice('a'), started]);
  });

  it('resolves observed with a past observation at once', async () => {
    const log = observationLog();
    log.observer(notice('a'));
    await expect(log.observed((o) => o.type === 'adapter_notice')).resolves.toEqual(notice('a'));
  });

  it('resolves observed with the first matching observation that arrives later', async () => {
    const log = observationLog();
    const waiting = log.observed((o) => o.type === 'adapter_notice' && o.name === 'b');
    log.observer(notice('a'));
    log.observer(notice('b'));
    log.observer(notice('b'));
    await expect(waiting).resolves.toBe(log.observations[1]);
  });

  it('skips the observations before `from`', async () => {
    const log = observationLog();
    log.observer(notice('a'));
    const from = log.observations.length;
    const waiting = log.observed((o) => o.type === 'adapter_notice', { from });
    log.observer(notice('c'));
    await expect(waiting).resolves.toEqual(notice('c'));
  });

  it('rejects observed with the reason of its signal and removes its listener', async () => {
    const log = observationLog();
    const controller = new AbortController();
    const waiting = log.observed(() => false, { signal: controller.signal });
    const reason = new Error('gave up');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects at once when the signal has already aborted', async () => {
    const log = observationLog();
    log.observer(notice('a'));
    const reason = new Error('already over');
    await expect(log.observed(() => true, { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
  });

  it('removes the abort listener once observed resolves', async () => {
    const log = observationLog();
    const controller = new AbortController();
    const waiting = log.observed((o) => o.type === 'shutdown_started', {
      signal: controller.signal,
    });
    log.observer(started);
    await waiting;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('resolves until once its condition holds after an observation', async () => {
    const log = observationLog();
    const waiting = log.until(() => log.observations.length === 2);
    log.observer(notice('a'));
    let done = false;
    void waiting.then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    log.observer(notice('b'));
    await expect(waiting).resolves.toBeUndefined();
  });

  it('lists the adapter notices of one name', () => {
    const log = observationLog();
    log.observer(notice('a'));
    log.observer(started);
    log.observer(notice('b'));
    log.observer(notice('a'));
    expect(log.notices('a')).toEqual([notice('a'), notice('a')]);
    expect(log.notices('z')).toEqual([]);
  });
});
