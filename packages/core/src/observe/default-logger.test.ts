import { afterEach, describe, expect, it, vi } from 'vitest';
import { adapterNotice } from '../adapter-kit/notices.js';
import { createRuntime } from '../runtime/create-runtime.js';
import type { CreateRuntimeOptions } from '../runtime/options.js';
import { createTestAdapter } from '../test-support/test-adapter.js';
import { TestState } from '../test-support/test-state.js';
import { logObserver, observersWithLogger } from './default-logger.js';
import { createStderrLogger, type LogFields, type RtLogger, redact } from './logger.js';
import type { Observation } from './observation.js';

/** A stream that keeps what is written, split into lines. */
function capturedStream(): { write(text: string): boolean; readonly lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    write(text: string) {
      lines.push(...text.split('\n').filter((line) => line.length > 0));
      return true;
    },
  };
}

/** A logger recording its calls. */
function recordingLogger(): RtLogger & { readonly calls: [string, LogFields, string][] } {
  const calls: [string, LogFields, string][] = [];
  return {
    calls,
    warn: (fields, message) => void calls.push(['warn', fields, message]),
    error: (fields, message) => void calls.push(['error', fields, message]),
  };
}

const EVENT = {
  adapter: 'slack',
  tenant: 'T1',
  id: 'Ev1',
  kind: 'message',
  shape: 'event_callback',
};

/** A sync runtime over a `slack`-named test adapter; `send(id)` dispatches a message event. */
function runtimeWith(options: Partial<CreateRuntimeOptions> = {}) {
  const adapter = createTestAdapter({ name: 'slack' });
  const runtime = createRuntime({
    state: new TestState(),
    dispatchMode: 'sync',
    ...options,
    adapters: [adapter],
  });
  const send = (id: string) =>
    adapter.send({
      id,
      shape: 'event_callback',
      text: 'secret words',
      payload: { text: 'secret words' },
    });
  return { runtime, send };
}

const notice = (name: string, at: number, extra: Partial<Observation> = {}): Observation =>
  ({
    ...adapterNotice('slack', name, { status: 500, token: 'xoxb-123-abc' }),
    at,
    ...extra,
  }) as Observation;

describe('the default logger with no observers', () => {
  const stderr = vi.spyOn(process.stderr, 'write');
  afterEach(() => {
    stderr.mockClear();
  });

  it('logs a failed handler to stderr with ids and the error, never the payload', async () => {
    const stream = capturedStream();
    stderr.mockImplementation((text) => stream.write(String(text)));
    const { runtime, send } = runtimeWith();
    runtime.on({ kind: 'message' }, () => {
      throw new Error('reply failed: channel_not_found');
    });
    const result = await send('Ev-failed');
    await runtime.shutdown();
    stderr.mockRestore();
    expect(result).toMatchObject({ status: 'completed', outcome: 'failed' });
    expect(stream.lines).toEqual([
      'rt error: handler failed adapter=slack tenant=T1 event=Ev-failed shape=event_callback outcome=failed error="Error: reply failed: channel_not_found"',
    ]);
    expect(stream.lines.join('\n')).not.toContain('secret words');
  });

  it('is silent with logger: false, and an observer replaces it', async () => {
    const stream = capturedStream();
    const spy = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((t) => stream.write(String(t)));
    const fail = () => {
      throw new Error('boom');
    };
    for (const options of [{ logger: false as const }, { observers: [() => {}] }]) {
      const { runtime, send } = runtimeWith(options);
      runtime.on({ kind: 'message' }, fail);
      await send('Ev-quiet');
      await runtime.shutdown();
    }
    spy.mockRestore();
    expect(stream.lines).toEqual([]);
  });

  it('sends lines to a given logger instead, beside any observers', async () => {
    const logger = recordingLogger();
    const seen: string[] = [];
    const { runtime, send } = runtimeWith({ logger, observers: [(o) => void seen.push(o.type)] });
    runtime.on({ kind: 'message' }, () => {
      throw new TypeError('bad');
    });
    await send('Ev2');
    await runtime.shutdown();
    expect(logger.calls).toEqual([
      [
        'error',
        {
          ...{ adapter: 'slack', tenant: 'T1', event: 'Ev2', shape: 'event_callback' },
          outcome: 'failed',
          error: 'TypeError: bad',
        },
        'handler failed',
      ],
    ]);
    expect(seen).toContain('dispatch_finished');
  });

  it('refuses a logger without warn and error, naming the option', () => {
    expect(() => createRuntime({ state: new TestState(), logger: {} as RtLogger })).toThrow(
      /logger/,
    );
    expect(() => createRuntime({ state: new TestState(), logger: undefined })).not.toThrow();
  });
});

describe('logObserver', () => {
  it('logs warning and error notices with their detail redacted, and skips quiet ones', () => {
    const logger = recordingLogger();
    const observe = logObserver(logger);
    observe(
      notice('request_failed', 0, {
        error: new Error('POST /webhooks/123/tok-EN_x failed'),
      } as never),
    );
    observe(notice('socket_connect_failed', 0));
    observe(notice('socket_connected', 0));
    observe(notice('some_third_party_notice', 0));
    observe(notice('some_third_party_failure', 0, { error: 'down' } as never));
    expect(logger.calls.map(([level, , message]) => `${level} ${message}`)).toEqual([
      'error request_failed',
      'warn socket_connect_failed',
      'warn some_third_party_failure',
    ]);
    expect(logger.calls[0]?.[1]).toEqual({
      adapter: 'slack',
      status: 500,
      token: '<redacted>',
      error: 'Error: POST /webhooks/123/<redacted> failed',
    });
  });

  it('logs prelude errors, refusals (not at shutdown), State failures and lost leases', () => {
    const logger = recordingLogger();
    const observe = logObserver(logger);
    const at = 0;
    const base = { at, receivedAt: at, event: EVENT, mode: 'deferred' } as const;
    observe({ type: 'prelude_error', ...base, error: new Error('redis down') } as Observation);
    observe({
      type: 'admission_rejected',
      ...base,
      adapter: 'slack',
      tenant: 'T1',
      reason: 'capacity',
    } as Observation);
    observe({
      type: 'admission_rejected',
      ...base,
      adapter: 'slack',
      tenant: 'T1',
      reason: 'shutdown',
    } as Observation);
    observe({
      type: 'admission_rejected',
      ...base,
      adapter: 'slack',
      tenant: 'T1',
      reason: 'tenant-capacity',
    } as Observation);
    observe({ type: 'state_error', at, operation: 'renewLock', key: 'k', error: new Error('x') });
    observe({ type: 'lease_lost', at, lockKey: 'k', fence: 3, error: new Error('y') });
    observe({
      type: 'dispatch_finished',
      ...base,
      outcome: 'completed',
      durationMs: 1,
    } as Observation);
    observe({
      type: 'dispatch_finished',
      ...base,
      outcome: 'timed-out',
      durationMs: 1,
    } as Observation);
    expect(logger.calls.map(([level, , message]) => `${level} ${message}`)).toEqual([
      'error delivery failed before acceptance',
      'warn delivery refused: capacity',
      'warn delivery refused: tenant-capacity',
      'warn state renewLock failed',
      'warn thread lock lease lost',
      'warn handler ran past detachTimeoutMs and was aborted',
    ]);
  });

  it('rate-limits each kind of trouble to burst lines per window, then reports what it suppressed', () => {
    const logger = recordingLogger();
    const observe = logObserver(logger, { burst: 2, windowMs: 1000 });
    for (let i = 0; i < 5; i += 1) observe(notice('socket_connect_failed', i));
    observe(notice('request_failed', 10));
    observe(notice('socket_connect_failed', 999));
    observe(notice('socket_connect_failed', 1000));
    observe(notice('socket_connect_failed', 1001));
    const lines = logger.calls.map(([, fields, message]) => `${message} ${fields.suppressed ?? 0}`);
    expect(lines).toEqual([
      'socket_connect_failed 0',
      'socket_connect_failed 0',
      'request_failed 0',
      'socket_connect_failed 4',
      'socket_connect_failed 0',
    ]);
  });

  it('contains a logger that throws', () => {
    const observe = logObserver({
      warn: () => {
        throw new Error('logger broke');
      },
      error: () => {},
    });
    expect(() => observe(notice('socket_closed', 0))).not.toThrow();
  });

  it('refuses a burst or window that is not positive', () => {
    const logger = recordingLogger();
    expect(() => logObserver(logger, { burst: 0 })).toThrow(/burst/);
    expect(() => logObserver(logger, { windowMs: -1 })).toThrow(/windowMs/);
  });
});

describe('observersWithLogger', () => {
  const mine = () => {};
  it('adds the stderr logger only when nothing observes and no logger is given', () => {
    expect(observersWithLogger([], undefined)).toHaveLength(1);
    expect(observersWithLogger([mine], undefined)).toEqual([mine]);
    expect(observersWithLogger([], false)).toEqual([]);
    expect(observersWithLogger([mine], recordingLogger())).toHaveLength(2);
  });
});

describe('the stderr logger and redaction', () => {
  it('writes one line per call, quoting values with spaces', () => {
    const stream = capturedStream();
    const logger = createStderrLogger({ stream });
    logger.warn(
      { adapter: 'slack', attempt: 2, error: 'Error: connect ECONNREFUSED' },
      'socket_connect_failed',
    );
    logger.error({}, 'handler failed');
    expect(stream.lines).toEqual([
      'rt warn: socket_connect_failed adapter=slack attempt=2 error="Error: connect ECONNREFUSED"',
      'rt error: handler failed',
    ]);
  });

  it('redacts Slack tokens, authorization values and Discord webhook tokens', () => {
    expect(redact('token xoxb-1-2-abc and xapp-1-A-9 and xoxp-x')).toBe(
      'token <redacted> and <redacted> and <redacted>',
    );
    expect(redact('Authorization: Bot MTk.abc-def and Bearer x.y')).toBe(
      'Authorization: Bot <redacted> and Bearer <redacted>',
    );
    expect(redact('/api/v10/webhooks/42/aW50ZXJhY3Rpb24/messages/@original')).toBe(
      '/api/v10/webhooks/42/<redacted>/messages/@original',
    );
    expect(redact('x'.repeat(400))).toHaveLength(303);
  });
});
