import { afterEach, describe, expect, it, vi } from 'vitest';
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

describe('failOnUnhandledRejections with fake timers', () => {
  // Registered before the check, so it runs after it (vitest runs after-hooks as a stack).
  afterEach(() => {
    vi.useRealTimers();
  });
  failOnUnhandledRejections();

  it('does not stall its check when a test leaves fake timers installed', () => {
    vi.useFakeTimers();
    expect(vi.isFakeTimers()).toBe(true);
  });
});
