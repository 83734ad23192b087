import { describe, expect, it } from 'vitest';
import { failOnUnhandledRejections } from './unhandled-rejections.js';

describe('failOnUnhandledRejections', () => {
  failOnUnhandledRejections();

  it('listens for unhandled rejections only while a test runs', () => {
    // Registered by the hook's beforeEach, removed by its afterEach.
    expect(process.listenerCount('unhandledRejection')).toBeGreaterThan(0);
  });

  it('lets a test pass whose rejections are all handled', async () => {
    const handled = Promise.reject(new Error('handled'));
    await expect(handled).rejects.toThrow('handled');
  });
});
