import { describe, expect, it } from 'vitest';
import { keyLayout } from './key-layout.js';

/** Redis Cluster's hash tag rule: the part of a key its slot is computed from. */
function hashedPart(redisKey: string): string {
  const open = redisKey.indexOf('{');
  if (open === -1) return redisKey;
  const close = redisKey.indexOf('}', open + 1);
  if (close === -1 || close === open + 1) return redisKey;
  return redisKey.slice(open + 1, close);
}

describe('keyLayout', () => {
  it('puts every key under the prefix with the key as hash tag', () => {
    const layout = keyLayout('rt:');
    expect(layout.markKey('slack:T1:Ev1')).toBe('rt:{slack:T1:Ev1}:mark');
    expect(layout.lockKey('thread')).toBe('rt:{thread}:lock');
    expect(layout.fenceKey('thread')).toBe('rt:{thread}:fence');
    expect(layout.releaseChannel).toBe('rt:lock-released');
  });

  it('keeps the lock and fence keys of one lock in one cluster slot, whatever the key holds', () => {
    const awkward = ['plain', 'with}brace', '{tagged}', '}{', '{}', 'a{b}c', '%7B', '{'];
    for (const prefix of ['rt:', '']) {
      const layout = keyLayout(prefix);
      for (const key of awkward) {
        const lockTag = hashedPart(layout.lockKey(key));
        expect(lockTag, `${prefix} / ${key}`).toBe(hashedPart(layout.fenceKey(key)));
        expect(lockTag, `${prefix} / ${key} is the whole tag`).not.toContain(':lock');
      }
    }
  });

  it('never maps two different keys to the same Redis key', () => {
    const layout = keyLayout('rt:');
    const keys = ['{', '%7B', '%257B', '}', '%7D', '%', '%25', 'a', 'b'];
    const names = new Set(keys.map((key) => layout.lockKey(key)));
    expect(names.size).toBe(keys.length);
    expect(hashedPart(layout.lockKey('a'))).not.toBe(hashedPart(layout.lockKey('b')));
  });
});
