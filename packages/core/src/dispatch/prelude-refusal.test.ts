import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AdmissionRejectedError, InvalidEventError, PreludeError } from '../errors.js';
import { setup } from '../test-support/setup.js';
import { deferred, makeEvent } from '../test-support/test-adapter.js';

/** Node's view of a promise's state, read without attaching a handler. */
function stateOf(promise: Promise<unknown>): 'pending' | 'rejected' | 'fulfilled' {
  const shown = inspect(promise);
  if (shown.includes('<pending>')) return 'pending';
  return shown.includes('<rejected>') ? 'rejected' : 'fulfilled';
}

describe('a refused dispatch', () => {
  it('is observed and counted before dispatch returns, and rejects only once its caller can handle it', async () => {
    const { runtime, adapter, ofType } = setup({ maxDetached: 1 });
    const release = deferred();
    runtime.onMessage(() => release.promise);
    await adapter.send();
    const handle = adapter.runtime!;

    const refused = handle.dispatch(makeEvent({ adapter: adapter.name, id: 'E-refused' }));
    // Recorded synchronously, yet not rejected yet: rejected promises and async functions that
    // throw before their first await cost an entry in Node's unhandled-rejection tracking.
    expect(ofType('admission_rejected')).toMatchObject([{ reason: 'capacity' }]);
    expect(runtime.stats().outcomes['admission-rejected']).toBe(1);
    expect(stateOf(refused)).toBe('pending');

    const error = await refused.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdmissionRejectedError);
    expect(error).toMatchObject({ reason: 'capacity', adapter: adapter.name, tenant: 'T1' });
    expect((error as Error).stack).not.toContain('\n');
    release.resolve();
  });

  it('rejects the same way at shutdown, for sync and deferred dispatch', async () => {
    const { runtime, adapter } = setup({}, { shapeModes: { modal: 'sync' } });
    runtime.onMessage(() => {});
    void runtime.shutdown();
    const handle = adapter.runtime!;
    for (const shape of ['message', 'modal']) {
      const refused = handle.dispatch(makeEvent({ adapter: adapter.name, shape }));
      expect(stateOf(refused)).toBe('pending');
      await expect(refused).rejects.toMatchObject({
        code: 'RT_ADMISSION_REJECTED',
        reason: 'shutdown',
      });
    }
  });

  it('still never throws synchronously: an invalid event or a failing lock scope rejects', async () => {
    const { runtime, adapter } = setup({
      lockScope: () => {
        throw new Error('no scope');
      },
    });
    runtime.onMessage(() => {});
    const handle = adapter.runtime!;
    const invalid = handle.dispatch(makeEvent({ adapter: adapter.name, tenant: '' }));
    await expect(invalid).rejects.toBeInstanceOf(InvalidEventError);
    const unscoped = handle.dispatch(makeEvent({ adapter: adapter.name }));
    await expect(unscoped).rejects.toBeInstanceOf(PreludeError);
  });
});
