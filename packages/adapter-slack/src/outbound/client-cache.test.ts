import { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { WebClientCache } from './client-cache.js';

describe('WebClientCache', () => {
  it('keeps one client per token and evicts the least recently used past capacity', () => {
    const created: string[] = [];
    const cache = new WebClientCache(2, (token) => {
      created.push(token);
      return new WebClient(token);
    });
    const a = cache.get('a');
    cache.get('b');
    expect(cache.get('a')).toBe(a);
    cache.get('c');
    expect(cache.size).toBe(2);
    cache.get('a');
    cache.get('b');
    expect(created).toEqual(['a', 'b', 'c', 'b']);
  });

  it('refuses a non-positive capacity', () => {
    expect(() => new WebClientCache(0, (token) => new WebClient(token))).toThrow(RangeError);
  });
});
