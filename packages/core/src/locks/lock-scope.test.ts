import { describe, expect, it } from 'vitest';
import { makeEvent } from '../test-support/test-adapter.js';
import { scopeKeyOf } from './lock-scope.js';

describe('scopeKeyOf', () => {
  it('keys thread scope on channel and thread, namespaced by adapter and tenant', () => {
    expect(
      scopeKeyOf(
        makeEvent({ adapter: 'slack', tenant: 'T9', channel: 'C3', thread: '17.5' }),
        'thread',
      ),
    ).toBe('slack:T9:C3:17.5');
    expect(scopeKeyOf(makeEvent({ channel: undefined, thread: '17.5' }), 'thread')).toBe(
      'test:T1:17.5',
    );
  });

  it('gives two channels’ threads with the same ts different keys', () => {
    const a = makeEvent({ channel: 'C1', thread: '17.5' });
    const b = makeEvent({ channel: 'C2', thread: '17.5' });
    expect(scopeKeyOf(a, 'thread')).not.toBe(scopeKeyOf(b, 'thread'));
  });

  it('encodes every part so separators inside ids cannot make two conversations collide', () => {
    const a = makeEvent({ channel: 'C1:x', thread: 'y' });
    const b = makeEvent({ channel: 'C1', thread: 'x:y' });
    expect(scopeKeyOf(a, 'thread')).toBe('test:T1:C1%3Ax:y');
    expect(scopeKeyOf(a, 'thread')).not.toBe(scopeKeyOf(b, 'thread'));
    expect(scopeKeyOf(makeEvent({ channel: 'a:b' }), 'channel')).toBe('test:T1:a%3Ab');
    expect(scopeKeyOf(makeEvent({ thread: undefined, id: 'x:1' }), 'thread')).toBe(
      'test:T1:event:x%3A1',
    );
  });

  it('gives an event without a thread its own scope instead of its channel', () => {
    const a = makeEvent({ channel: 'C1', thread: undefined, id: 'cmd-1' });
    const b = makeEvent({ channel: 'C1', thread: undefined, id: 'cmd-2' });
    expect(scopeKeyOf(a, 'thread')).toBe('test:T1:event:cmd-1');
    expect(scopeKeyOf(a, 'thread')).not.toBe(scopeKeyOf(b, 'thread'));
  });

  it('keys channel scope on the channel, then the thread, then the event', () => {
    expect(scopeKeyOf(makeEvent({ channel: 'C1', thread: 'x' }), 'channel')).toBe('test:T1:C1');
    expect(scopeKeyOf(makeEvent({ channel: undefined, thread: 'x' }), 'channel')).toBe('test:T1:x');
  });

  it('encodes adapter and tenant so installations cannot collide', () => {
    const tricky = makeEvent({ adapter: 'a', tenant: 'b:c', thread: 'd' });
    const plain = makeEvent({ adapter: 'a:b', tenant: 'c', thread: 'd' });
    expect(scopeKeyOf(tricky, 'thread')).not.toBe(scopeKeyOf(plain, 'thread'));
  });

  it('uses a scope function and refuses an empty key', () => {
    expect(scopeKeyOf(makeEvent({ user: 'U7' }), (e) => `user:${e.user}`)).toBe('test:T1:user:U7');
    expect(() => scopeKeyOf(makeEvent(), () => '')).toThrow(/non-empty string/);
  });
});
