import { AdmissionRejectedError, type RtEvent } from '@rt/core';
import { describe, expect, it } from 'vitest';
import { fakeRuntimeHandle } from './fake-runtime-handle.js';

const event = { adapter: 'a', tenant: 'T', id: 'e1', kind: 'message', shape: 'm' } as RtEvent;

describe('fakeRuntimeHandle', () => {
  it('records each dispatch with its options and answers unrouted by default', async () => {
    const handle = fakeRuntimeHandle();
    const signal = new AbortController().signal;
    await expect(handle.dispatch(event, { signal })).resolves.toEqual({ status: 'unrouted' });
    expect(handle.dispatched).toEqual([event]);
    expect(handle.dispatchOptions).toEqual([{ signal }]);
  });

  it('answers with what the test scripts, errors included', async () => {
    const handle = fakeRuntimeHandle(async (dispatched) => {
      if (dispatched.id === 'busy') throw new AdmissionRejectedError('capacity', 'a', 'T');
      return { status: 'duplicate' };
    });
    await expect(handle.dispatch(event)).resolves.toEqual({ status: 'duplicate' });
    await expect(handle.dispatch({ ...event, id: 'busy' })).rejects.toBeInstanceOf(
      AdmissionRejectedError,
    );
    expect(handle.dispatched.map((e) => e.id)).toEqual(['e1', 'busy']);
  });

  it('records observations, and lets a test change the mode and the shutdown flag', () => {
    const handle = fakeRuntimeHandle();
    handle.observe({ type: 'adapter_notice', at: 1, adapter: 'a', name: 'n' });
    expect(handle.observed).toEqual([{ type: 'adapter_notice', at: 1, adapter: 'a', name: 'n' }]);
    expect(handle.modeFor(event)).toBe('deferred');
    handle.modeFor = () => 'sync';
    handle.shuttingDown = true;
    expect(handle.modeFor(event)).toBe('sync');
    expect(handle.shuttingDown).toBe(true);
  });
});
