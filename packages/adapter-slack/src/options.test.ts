import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SLACK_ADAPTER_OPTIONS,
  DEFAULT_WEB_CLIENT_OPTIONS,
  resolveSlackOptions,
  type SlackAdapterOptions,
} from './options.js';

const base: SlackAdapterOptions = { signingSecret: 's', botToken: 'xoxb-x' };

describe('dispatchModes', () => {
  it('refuses a misspelt mode with a TypeError naming the option and the shape', () => {
    const options = {
      ...base,
      dispatchModes: { view_submission: 'sycn' },
    } as unknown as SlackAdapterOptions;
    expect(() => resolveSlackOptions(options)).toThrow(TypeError);
    expect(() => resolveSlackOptions(options)).toThrow(/dispatchModes\.view_submission.*"sycn"/);
  });

  it('refuses an unknown shape with a TypeError naming it', () => {
    const options = {
      ...base,
      dispatchModes: { view_submit: 'sync' },
    } as unknown as SlackAdapterOptions;
    expect(() => resolveSlackOptions(options)).toThrow(/dispatchModes.*"view_submit"/);
  });

  it('refuses a non-object', () => {
    const options = { ...base, dispatchModes: 'sync' } as unknown as SlackAdapterOptions;
    expect(() => resolveSlackOptions(options)).toThrow(TypeError);
  });

  it('merges valid modes over the defaults', () => {
    const resolved = resolveSlackOptions({
      ...base,
      dispatchModes: { slash_command: 'sync', view_submission: 'deferred' },
    });
    expect(resolved.dispatchModes).toEqual({
      slash_command: 'sync',
      view_submission: 'deferred',
      block_suggestion: 'sync',
    });
  });
});

describe('deadlines', () => {
  it('defaults to an ack deadline of 2500 ms and a sync deadline of 2000 ms', () => {
    const resolved = resolveSlackOptions(base);
    expect(resolved.ackDeadlineMs).toBe(2500);
    expect(resolved.syncDeadlineMs).toBe(2000);
    expect(DEFAULT_SLACK_ADAPTER_OPTIONS.ackDeadlineMs).toBe(2500);
  });

  it('derives the sync deadline from a custom ack deadline (80 %)', () => {
    expect(resolveSlackOptions({ ...base, ackDeadlineMs: 1000 }).syncDeadlineMs).toBe(800);
  });

  it.each([
    [{ ackDeadlineMs: 0 }, /ackDeadlineMs must be a positive integer/],
    [{ ackDeadlineMs: 2.5 }, /ackDeadlineMs must be a positive integer/],
    [{ ackDeadlineMs: 3001 }, /ackDeadlineMs must be at most 3000/],
    [{ syncDeadlineMs: 2500 }, /syncDeadlineMs must be below ackDeadlineMs \(2500\)/],
    [{ ackDeadlineMs: 1000, syncDeadlineMs: 1500 }, /syncDeadlineMs must be below/],
  ])('refuses %o with a RangeError naming the option', (extra, message) => {
    expect(() => resolveSlackOptions({ ...base, ...extra })).toThrow(RangeError);
    expect(() => resolveSlackOptions({ ...base, ...extra })).toThrow(message);
  });
});

describe('webClientOptions', () => {
  it('defaults to a bounded policy: a 10 s timeout and two retries within 30 s', () => {
    const resolved = resolveSlackOptions(base);
    expect(resolved.webClientOptions).toEqual(DEFAULT_WEB_CLIENT_OPTIONS);
    expect(resolved.webClientOptions.timeout).toBe(10_000);
    expect(resolved.webClientOptions.retryConfig).toMatchObject({
      retries: 2,
      maxRetryTime: 30_000,
    });
  });

  it('lets the user override each key, a retryConfig replacing the default one whole', () => {
    const resolved = resolveSlackOptions({
      ...base,
      webClientOptions: { retryConfig: { retries: 0 }, rejectRateLimitedCalls: true },
    });
    expect(resolved.webClientOptions).toEqual({
      timeout: 10_000,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
  });
});

describe('signingSecret', () => {
  it('may be left out (Socket Mode), and reading the HTTP handler then throws a TypeError naming it', async () => {
    const { createSlackAdapter } = await import('./slack-adapter.js');
    const adapter = createSlackAdapter({ botToken: 'xoxb-x' });
    expect(() => adapter.handler).toThrow(TypeError);
    expect(() => adapter.handler).toThrow(/signingSecret is required/);
  });

  it('is still refused when given empty', () => {
    expect(() => resolveSlackOptions({ ...base, signingSecret: '' })).toThrow(TypeError);
  });
});
