import { describe, expect, it } from 'vitest';
import { TestState } from '../test-support/test-state.js';
import { hasLockWakeups, hasMultiKeyMark, type MultiKeyMark, type State } from './state.js';

describe('capability guards', () => {
  it('detect markEvents and waitForRelease only when the State has them', () => {
    const plain: State = new TestState();
    expect(hasMultiKeyMark(plain)).toBe(false);
    expect(hasLockWakeups(plain)).toBe(false);
    const multi: State & MultiKeyMark = Object.assign(new TestState(), {
      markEvents: async () => true,
    });
    expect(hasMultiKeyMark(multi)).toBe(true);
    expect(hasLockWakeups(multi)).toBe(false);
  });

  it('ignore a markEvents that is not a function', () => {
    const state = Object.assign(new TestState(), { markEvents: true });
    expect(hasMultiKeyMark(state)).toBe(false);
  });
});
