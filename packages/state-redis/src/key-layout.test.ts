import { installationMarkKey } from '@rt/core/state';
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

  it('keeps the subscription and state of one thread key in one slot, tagged by it', () => {
    const awkward = ['slack:T1:C1:1.1', 'discord:G:C:{x}', '}{', '%7B'];
    const layout = keyLayout('rt:');
    expect(layout.subscriptionKey('slack:T1:C1:1.1')).toBe('rt:{slack:T1:C1:1.1}:sub');
    expect(layout.threadStateKey('slack:T1:C1:1.1')).toBe('rt:{slack:T1:C1:1.1}:state');
    for (const key of awkward) {
      const tag = hashedPart(layout.subscriptionKey(key));
      expect(tag, key).toBe(hashedPart(layout.threadStateKey(key)));
      // Under thread scope the thread key is the lock key: the lock shares the slot too.
      expect(tag, key).toBe(hashedPart(layout.lockKey(key)));
    }
  });

  it('never maps two different keys to the same Redis key', () => {
    const layout = keyLayout('rt:');
    const keys = ['{', '%7B', '%257B', '}', '%7D', '%', '%25', 'a', 'b'];
    const names = new Set(keys.map((key) => layout.lockKey(key)));
    expect(names.size).toBe(keys.length);
    expect(hashedPart(layout.lockKey('a'))).not.toBe(hashedPart(layout.lockKey('b')));
  });

  it('tags the dedupe marks of rt keys by installation, whatever their kind and id', () => {
    const layout = keyLayout('rt:');
    const event = installationMarkKey('event', 'slack', 'T1', 'Ev1');
    expect(layout.markKey(event)).toBe('rt:{slack:T1}:mark:event:slack:T1:Ev1');
    const sameInstallation = [
      event,
      installationMarkKey('event', 'slack', 'T1', 'Ev2'),
      installationMarkKey('message', 'slack', 'T1', 'C1/1700000000.000100'),
      installationMarkKey('message-edit', 'slack', 'T1', '{x}'),
    ];
    const tags = new Set(sameInstallation.map((key) => hashedPart(layout.markKey(key))));
    expect([...tags]).toEqual(['slack:T1']);
    const elsewhere = installationMarkKey('event', 'slack', 'T2', 'Ev1');
    expect(hashedPart(layout.markKey(elsewhere))).toBe('slack:T2');
    const braced = installationMarkKey('event', 'a{b}', 'c}', 'Ev1');
    expect(hashedPart(layout.markKey(braced))).toBe('a%257Bb%257D:c%257D');
  });

  it('keeps a key not in the rt form under its own tag, as before', () => {
    const layout = keyLayout('');
    expect(layout.markKey('plain')).toBe('{plain}:mark');
    expect(layout.markKey('a:b:c')).toBe('{a:b:c}:mark');
    expect(layout.markKey('{a}')).toBe('{%7Ba%7D}:mark');
  });

  it('never maps two different mark keys to the same Redis key, across both forms', () => {
    const layout = keyLayout('rt:');
    const keys = [
      'a',
      'a:b',
      'a:b:c',
      'a:b:c:d',
      'x:b:c:d',
      'a:b:c:d:e',
      'a:b:c:mark',
      'b:c',
      '{b:c}',
      '%7Bb:c%7D',
      'k:b:c:}:mark:k:b:c:',
      installationMarkKey('event', 'b', 'c', 'd'),
      installationMarkKey('message', 'b', 'c', 'd'),
    ];
    const names = new Set(keys.map((key) => layout.markKey(key)));
    expect(names.size).toBe(keys.length);
    for (const key of keys) expect(layout.markKey(key)).not.toBe(layout.lockKey(key));
  });
});
