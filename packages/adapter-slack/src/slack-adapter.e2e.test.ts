import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Observation, type RtEvent, toNodeListener } from '@rt/core';
import { deferred, unreachableState } from '@rt/testing';
import {
  buildMessageEvent,
  buildSlashCommand,
  createSlackSigner,
  type SlackTestPayload,
} from '@rt/testing/slack';
import { afterEach, describe, expect, it } from 'vitest';
import type { SlackAdapter } from './slack-adapter.js';
import { type Harness, SECRET, startHarness } from './test-support/harness.js';

type ListenerOf = (adapter: SlackAdapter) => RequestListener;

/** The two ways onto node:http: the native listener, and the web handler via toNodeListener. */
const NODE_LISTENERS: readonly { name: string; listenerOf: ListenerOf }[] = [
  { name: 'native nodeListener', listenerOf: (adapter) => adapter.nodeListener },
  { name: 'toNodeListener(handler)', listenerOf: (adapter) => toNodeListener(adapter.handler) },
];

/** Serves the adapter on node:http with `listenerOf`, on 127.0.0.1 port 0. */
async function serveWith(
  listenerOf: ListenerOf,
  h: Harness,
): Promise<{ url: string; server: Server }> {
  const server = createServer(listenerOf(h.adapter));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`, server };
}

function post(url: string, payload: SlackTestPayload, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': payload.contentType,
      ...createSlackSigner(SECRET).sign(payload.body),
      ...headers,
    },
    body: payload.body,
  });
}

describe.each(NODE_LISTENERS)('over real HTTP (node:http, $name)', ({ listenerOf }) => {
  const serve = (harness: Harness) => serveWith(listenerOf, harness);
  let h: Harness;
  let server: Server | undefined;
  afterEach(async () => {
    const closing = new Promise<void>((resolve) =>
      server ? server.close(() => resolve()) : resolve(),
    );
    server?.closeAllConnections();
    await closing;
    server = undefined;
    await h.close();
  });

  it('handles a rejected Events API delivery exactly once when Slack retries it after capacity frees', async () => {
    h = await startHarness({ runtime: { maxDetached: 1 } });
    const served = await serve(h);
    server = served.server;
    const gate = deferred();
    const handled: RtEvent[] = [];
    h.runtime.onMessage(async (ctx) => {
      handled.push(ctx.event);
      if (ctx.event.text === 'hold') await gate.promise;
    });

    expect(
      (await post(served.url, buildMessageEvent({ text: 'hold', channel: 'C1' }))).status,
    ).toBe(200);
    const event = buildMessageEvent({ text: 'important', channel: 'C2' });
    const first = await post(served.url, event);
    expect(first.status).toBe(503);
    expect(first.headers.get('x-slack-no-retry')).toBeNull();

    gate.resolve();
    await h.observed((o) => o.type === 'dispatch_finished' && o.outcome === 'completed');

    const retry = await post(served.url, event, {
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_error',
    });
    expect(retry.status).toBe(200);
    await h.observed(
      (o) =>
        o.type === 'dispatch_finished' &&
        o.outcome === 'completed' &&
        o.event.id === event.data.event_id,
    );
    const important = handled.filter((e) => e.text === 'important');
    expect(important).toHaveLength(1);
    expect(important[0]?.retry).toEqual({ attempt: 1, reason: 'http_error' });

    // A further redelivery of the now-handled event is a duplicate: 200, not handled again.
    const again = await post(served.url, event, { 'x-slack-retry-num': '2' });
    expect(again.status).toBe(200);
    await h.observed((o) => o.type === 'dispatch_finished' && o.outcome === 'duplicate');
    expect(handled.filter((e) => e.text === 'important')).toHaveLength(1);
  });

  it('answers a duplicate delivery 200 without handling it twice', async () => {
    h = await startHarness();
    const served = await serve(h);
    server = served.server;
    const handled: RtEvent[] = [];
    h.runtime.onMessage((ctx) => {
      handled.push(ctx.event);
    });
    const event = buildMessageEvent({ text: 'once' });
    expect((await post(served.url, event)).status).toBe(200);
    const duplicate = await post(served.url, event, {
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });
    expect(duplicate.status).toBe(200);
    expect(await duplicate.text()).toBe('');
    await h.observed((o) => o.type === 'dispatch_finished' && o.outcome === 'duplicate');
    await h.observed((o) => o.type === 'dispatch_finished' && o.outcome === 'completed');
    expect(handled).toHaveLength(1);
  });

  it('answers a prelude error with 503 for events and an unavailable ephemeral for slash commands', async () => {
    h = await startHarness({
      state: unreachableState(),
      adapter: { unavailableText: 'Down for a moment.' },
    });
    const served = await serve(h);
    server = served.server;
    const handled: RtEvent[] = [];
    h.runtime.on(
      () => true,
      (ctx) => {
        handled.push(ctx.event);
      },
    );

    const event = await post(served.url, buildMessageEvent());
    expect(event.status).toBe(503);
    expect(event.headers.get('x-slack-no-retry')).toBeNull();

    const command = await post(served.url, buildSlashCommand({ command: '/deploy' }));
    expect(command.status).toBe(200);
    expect(await command.json()).toEqual({
      response_type: 'ephemeral',
      text: 'Down for a moment.',
    });

    const preludeErrors = h.observations.filter((o: Observation) => o.type === 'prelude_error');
    expect(preludeErrors).toHaveLength(2);
    expect(handled).toHaveLength(0);
  });

  it('answers 413 to a 5 MiB body over the wire and keeps serving', async () => {
    h = await startHarness();
    const served = await serve(h);
    server = served.server;
    const big: SlackTestPayload = {
      contentType: 'application/json',
      body: JSON.stringify({ type: 'event_callback', pad: 'x'.repeat(5 * 1024 * 1024) }),
      data: {},
    };
    // The adapter answers before reading the body, then discards the rest, so the client (still
    // sending) always gets to read the 413 instead of a reset connection.
    const response = await post(served.url, big);
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('Payload Too Large');
    const next = await post(served.url, buildMessageEvent());
    expect(next.status).toBe(200);
    expect(h.observations.filter((o) => o.type === 'dispatch_admitted')).toHaveLength(0);
  });
});
