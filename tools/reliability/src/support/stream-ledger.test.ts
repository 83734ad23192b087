import type { Observation } from '@rt/core';
import { DEFAULT_STREAM_OPTIONS } from '@rt/core/adapter';
import { describe, expect, it } from 'vitest';
import { checkStreams, replyChunks, StreamLedger, slackReplies } from './stream-ledger.js';

const FULL = replyChunks('Ev000001', 3).join('');
const { interruptedMarker } = DEFAULT_STREAM_OPTIONS;

function ledgerOf(key: string, full: string): StreamLedger {
  const ledger = new StreamLedger();
  ledger.handled.record(key);
  ledger.expected.set(key, full);
  return ledger;
}

function observed(
  key: string,
  status: 'completed' | 'interrupted' | 'failed' | 'unfinished',
  outcome: string,
  extra: { chars?: number; rateLimited?: number; durationMs?: number } = {},
): Observation[] {
  const event = { adapter: 'slack', tenant: 'T1', id: key } as never;
  return [
    {
      type: 'stream_finished',
      at: 0,
      event,
      adapter: 'slack',
      path: 'slack-stream',
      status,
      chars: extra.chars ?? FULL.length,
      writes: 3,
      rateLimited: extra.rateLimited ?? 0,
      durationMs: extra.durationMs ?? 100,
    },
    { type: 'dispatch_finished', event, outcome } as unknown as Observation,
  ];
}

describe('checkStreams', () => {
  it('passes a whole reply, and a prefix ended by the interrupted marker', () => {
    const whole = checkStreams({
      ledger: ledgerOf('Ev000001', FULL),
      shown: new Map([['Ev000001', FULL]]),
      observations: observed('Ev000001', 'completed', 'completed'),
      allowed: ['completed'],
    });
    expect(whole.violations).toEqual([]);
    const cut = checkStreams({
      ledger: ledgerOf('Ev000001', FULL),
      shown: new Map([['Ev000001', FULL.slice(0, 5) + interruptedMarker]]),
      observations: observed('Ev000001', 'interrupted', 'preempted'),
      allowed: ['interrupted'],
    });
    expect(cut.violations).toEqual([]);
  });

  it('flags a half-written reply without its marker, and text the source never yielded', () => {
    const half = checkStreams({
      ledger: ledgerOf('Ev000001', FULL),
      shown: new Map([['Ev000001', FULL.slice(0, 5)]]),
      observations: observed('Ev000001', 'interrupted', 'preempted'),
      allowed: ['interrupted'],
    });
    expect(half.violations).toEqual([expect.stringContaining('(no marker)')]);
    const wrong = checkStreams({
      ledger: ledgerOf('Ev000001', FULL),
      shown: new Map([['Ev000001', `${FULL}!`]]),
      observations: observed('Ev000001', 'completed', 'completed'),
      allowed: ['completed'],
    });
    expect(wrong.violations).toEqual([expect.stringContaining('completed but shows')]);
  });

  it('flags a status outside the allowed ones, an outcome that disagrees, and a missing observation', () => {
    const result = checkStreams({
      ledger: ledgerOf('Ev000001', FULL),
      shown: new Map([['Ev000001', FULL.slice(0, 5) + interruptedMarker]]),
      observations: observed('Ev000001', 'interrupted', 'completed'),
      allowed: ['completed'],
    });
    expect(result.violations).toEqual([
      'stream Ev000001 ended interrupted',
      "stream Ev000001 ended interrupted but its delivery's outcome is completed",
    ]);
    const missing = checkStreams({
      ledger: ledgerOf('Ev000001', FULL),
      shown: new Map([['Ev000001', FULL]]),
      observations: [],
      allowed: ['completed'],
    });
    expect(missing.violations).toEqual(['stream Ev000001 has 0 stream_finished observations']);
  });

  it('flags rate-limit answers retried faster than their least Retry-After', () => {
    const result = checkStreams({
      ledger: ledgerOf('Ev000001', FULL),
      shown: new Map([['Ev000001', FULL]]),
      observations: observed('Ev000001', 'completed', 'completed', {
        rateLimited: 5,
        durationMs: 300,
      }),
      allowed: ['completed'],
      minRetryAfterMs: 1000,
    });
    expect(result.violations).toEqual([expect.stringContaining('rate-limited 5 times in 300 ms')]);
  });

  it('joins the texts of the messages in each flood event thread', () => {
    const replies = slackReplies([
      { threadTs: '1800000000.000001', text: 'a' },
      { threadTs: '1700000000.000009', text: 'not ours' },
      { threadTs: '1800000000.000001', text: 'b' },
      { threadTs: undefined, text: 'top level' },
    ]);
    expect(replies).toEqual(new Map([['Ev000001', 'ab']]));
  });
});
