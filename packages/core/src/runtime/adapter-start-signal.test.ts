import { describe, expect, it } from 'vitest';
import type { Adapter } from '../adapter/adapter.js';
import { setup } from '../test-support/setup.js';

describe('Adapter.start(signal)', () => {
  it('gets a signal that aborts when shutdown begins, so a start still connecting can give up', async () => {
    let seen: AbortSignal | undefined;
    const connecting: Adapter = {
      name: 'connecting',
      attach: () => {},
      reply: async () => ({ channel: 'C1', id: 'm1' }),
      start: (signal) => {
        seen = signal;
        return new Promise<void>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      },
    };
    const { runtime } = setup({ adapters: [connecting] });
    const starting = runtime.start();
    expect(seen?.aborted).toBe(false);
    await runtime.shutdown({ graceMs: 0 });
    expect(seen?.aborted).toBe(true);
    await expect(starting).rejects.toMatchObject({ code: 'RT_SHUTDOWN' });
  });
});
