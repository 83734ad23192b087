import { describe, expect, it } from 'vitest';
import { deferred } from './deferred.js';

describe('deferred', () => {
  it('resolves its promise when the test resolves it, and reports it settled', async () => {
    const gate = deferred<string>();
    expect(gate.settled).toBe(false);
    gate.resolve('go');
    expect(gate.settled).toBe(true);
    await expect(gate.promise).resolves.toBe('go');
  });

  it('rejects its promise when the test rejects it; a second settle changes nothing', async () => {
    const gate = deferred<number>();
    const boom = new Error('boom');
    gate.reject(boom);
    gate.resolve(1);
    await expect(gate.promise).rejects.toBe(boom);
  });

  it('stays pending until settled', async () => {
    const gate = deferred();
    let done = false;
    void gate.promise.then(() => {
      done = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    gate.resolve();
    await gate.promise;
    expect(done).toBe(true);
  });
});
