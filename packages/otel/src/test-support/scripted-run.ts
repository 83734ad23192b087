import { createRuntime, type Observation, type State } from '@rt/core';
import type { RuntimeHandle } from '@rt/core/adapter';
import { createMemoryState } from '@rt/state-memory';
import { createTestAdapter } from '@rt/testing';
import { expect } from 'vitest';
import { type OtelObserverOptions, otelObserver } from '../index.js';
import { deferred, type Point, type Telemetry } from './telemetry.js';

/** Recognisable user content put in every payload, text, user and token field of the runs. */
export const SECRETS = Object.freeze({
  text: 'SECRET-TEXT-7f3a',
  token: 'xoxb-SECRET-TOKEN-91c2',
  payload: 'SECRET-PAYLOAD-c0de',
  user: 'U-SECRET-USER',
  channel: 'C-SECRET-CHANNEL',
});

/** The fields of a synthetic event that carry user content. */
export function secretFields(label: string) {
  return {
    text: `${label} ${SECRETS.text}`,
    user: SECRETS.user,
    channel: SECRETS.channel,
    payload: { token: SECRETS.token, blob: SECRETS.payload, text: SECRETS.text },
  };
}

/** What a scripted run leaves behind. */
export interface RunResult {
  /** Metric points collected while work was still in flight (gauges are live then). */
  readonly inFlightPoints: Point[];
  /** Every observation the runtime emitted, in order. */
  readonly observations: Observation[];
}

/**
 * The outcome run: on a `queue` runtime with `maxDetached: 3`, one delivery each `completed`,
 * `duplicate`, `failed`, `superseded`, two `admission-rejected` (capacity, shutdown) and three
 * `shutdown` (two running handlers aborted, one parked). The handler is a plain function (the
 * observer's `aroundHandler` wraps it) and opens its own `bot.outbound` span, which must nest
 * under the delivery's `rt.handler` span.
 */
export async function outcomeRun(
  telemetry: Telemetry,
  options: OtelObserverOptions = {},
): Promise<RunResult> {
  const otel = otelObserver({
    meterProvider: telemetry.meterProvider,
    tracerProvider: telemetry.tracerProvider,
    ...options,
  });
  const observations: Observation[] = [];
  const adapter = createTestAdapter({ name: 'slack', tenant: 'T1' });
  const runtime = createRuntime({
    state: createMemoryState(),
    adapters: [adapter],
    observers: [otel, (o) => void observations.push(o)],
    concurrency: 'queue',
    maxDetached: 3,
  });
  const unbind = otel.bindRuntime(runtime);
  const started = new Map<string, () => void>();
  const waitStarted = (id: string) => {
    const gate = deferred();
    started.set(id, gate.resolve);
    return gate.promise;
  };
  const botTracer = telemetry.tracerProvider.getTracer('bot');
  runtime.onMention(async (ctx) => {
    botTracer.startSpan('bot.outbound').end();
    started.get(ctx.event.id)?.();
    const text = ctx.event.text ?? '';
    if (text.startsWith('boom')) throw new Error(`boom: could not handle ${text}`);
    if (text.startsWith('hold')) {
      await new Promise<void>((_, reject) => {
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
      });
    }
  });

  await adapter.mention('', { id: 'E1', thread: 't-a', ...secretFields('hello') });
  await adapter.settled();
  expect(
    (await adapter.mention('', { id: 'E1', thread: 't-a', ...secretFields('again') })).status,
  ).toBe('duplicate');
  await adapter.mention('', { id: 'E2', thread: 't-b', ...secretFields('boom') });
  await adapter.settled();
  const e3 = waitStarted('E3');
  await adapter.mention('', { id: 'E3', thread: 't-c', ...secretFields('hold') });
  await e3;
  await adapter.mention('', { id: 'E4', thread: 't-c', ...secretFields('park') });
  await adapter.mention('', { id: 'E5', thread: 't-c', ...secretFields('park') });
  const e6 = waitStarted('E6');
  await adapter.mention('', { id: 'E6', thread: 't-d', ...secretFields('hold') });
  await e6;
  await expect(
    adapter.mention('', { id: 'E7', thread: 't-e', ...secretFields('full') }),
  ).rejects.toMatchObject({ reason: 'capacity' });
  const inFlightPoints = await telemetry.points();
  const done = runtime.shutdown({ graceMs: 0 });
  await expect(
    adapter.mention('', { id: 'E8', thread: 't-f', ...secretFields('late') }),
  ).rejects.toMatchObject({ reason: 'shutdown' });
  await done;
  unbind();
  return { inFlightPoints, observations };
}

/**
 * The failure run: on a `drop` runtime, a `dropped` delivery after a lock conflict, a prelude
 * error (markEvent throws), a State error (releaseLock throws), a lease loss (renewal refused)
 * and two adapter notices, plus a sync command.
 */
export async function failureRun(telemetry: Telemetry): Promise<RunResult> {
  const otel = otelObserver({
    meterProvider: telemetry.meterProvider,
    tracerProvider: telemetry.tracerProvider,
  });
  const observations: Observation[] = [];
  const inner = createMemoryState();
  const state: State = {
    markEvent: (key, ttl) =>
      key.endsWith('P1') ? Promise.reject(new Error('redis down')) : inner.markEvent(key, ttl),
    acquireLock: (key, ttl) => inner.acquireLock(key, ttl),
    renewLock: (lease, ttl) =>
      lease.key.endsWith('lease') ? Promise.resolve(false) : inner.renewLock(lease, ttl),
    releaseLock: (lease) =>
      lease.key.endsWith('rel-fail')
        ? Promise.reject(new Error('release failed'))
        : inner.releaseLock(lease),
    close: () => inner.close(),
  };
  const adapter = createTestAdapter({
    name: 'slack',
    tenant: 'T1',
    shapeModes: { command: 'sync' },
  });
  let handle: RuntimeHandle | undefined;
  const attach = adapter.attach.bind(adapter);
  adapter.attach = (h) => {
    handle = h;
    attach(h);
  };
  const runtime = createRuntime({
    state,
    adapters: [adapter],
    observers: [otel, (o) => void observations.push(o)],
    concurrency: 'drop',
    // The refused renewal comes at a third of this; long enough that a loaded machine never
    // loses the other leases by a late timer.
    lockTtlMs: 900,
  });
  const unbind = otel.bindRuntime(runtime);
  const release = deferred();
  const holding = deferred();
  runtime.onMention(async (ctx) => {
    if (ctx.event.thread === 'x') {
      holding.resolve();
      await release.promise;
    }
    if (ctx.event.thread === 'lease') {
      await new Promise<void>((_, reject) => {
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
      });
    }
  });
  runtime.onCommand('status', () => ({ text: 'ok' }));

  await adapter.mention('', { id: 'L1', thread: 'x', ...secretFields('first') });
  await holding.promise;
  await adapter.mention('', { id: 'L2', thread: 'x', ...secretFields('second') });
  release.resolve();
  await adapter.settled();
  await expect(adapter.mention('', { id: 'P1', ...secretFields('prelude') })).rejects.toMatchObject(
    { code: 'RT_PRELUDE' },
  );
  await adapter.mention('', { id: 'R1', thread: 'rel-fail', ...secretFields('release') });
  await adapter.mention('', { id: 'S1', thread: 'lease', ...secretFields('lease') });
  await adapter.settled();
  const sync = await adapter.command('status', SECRETS.text, { id: 'C1', ...secretFields('cmd') });
  expect(sync).toMatchObject({
    status: 'completed',
    outcome: 'completed',
    response: { text: 'ok' },
  });
  handle?.observe({
    type: 'adapter_notice',
    at: Date.now(),
    adapter: 'slack',
    name: 'busy_failed',
  });
  handle?.observe({
    type: 'adapter_notice',
    at: Date.now(),
    adapter: 'slack',
    name: 'busy_failed',
    detail: { text: SECRETS.text },
  });
  const inFlightPoints = await telemetry.points();
  await runtime.shutdown({ graceMs: 0 });
  unbind();
  return { inFlightPoints, observations };
}
