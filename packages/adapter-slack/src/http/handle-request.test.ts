import {
  closeHttpTransports,
  failOnUnhandledRejections,
  fakeRuntimeHandle,
  HTTP_TRANSPORTS,
} from '@rt/testing/adapter';
import {
  buildAppRateLimited,
  buildMessageEvent,
  buildSlashCommand,
  buildSslCheck,
  buildUrlVerification,
  createSlackSigner,
  interactivePayload,
  jsonPayload,
  SLACK_TEST_IDS,
  type SlackTestPayload,
} from '@rt/testing/slack';
import { afterAll, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../slack-adapter.js';
import { NOW_MS, NOW_S, SECRET, unitAdapter } from '../test-support/harness.js';

function request(payload: SlackTestPayload, headers: Record<string, string>): Request {
  return new Request('http://127.0.0.1/slack/events', {
    method: 'POST',
    headers: { 'content-type': payload.contentType, ...headers },
    body: payload.body,
  });
}

describe.each(HTTP_TRANSPORTS)('over the $name', (transport) => {
  afterAll(() => closeHttpTransports());

  describe('signature verification', () => {
    failOnUnhandledRejections();

    it('accepts a request signed with the current secret and dispatches it', async () => {
      const { adapter, runtime } = unitAdapter();
      const payload = buildMessageEvent();
      const response = await transport.serve(adapter)(
        createSlackSigner(SECRET).request(payload, { timestamp: NOW_S }),
      );
      expect(response.status).toBe(200);
      expect(runtime.dispatched).toHaveLength(1);
    });

    it('accepts any secret of a rotation list', async () => {
      const { adapter, runtime } = unitAdapter();
      const response = await transport.serve(adapter)(
        createSlackSigner('rotated-new-secret').request(buildMessageEvent(), { timestamp: NOW_S }),
      );
      expect(response.status).toBe(200);
      expect(runtime.dispatched).toHaveLength(1);
    });

    const refusals: [string, (payload: SlackTestPayload) => Request][] = [
      ['a wrong secret', (p) => createSlackSigner('wrong').request(p, { timestamp: NOW_S })],
      [
        'a timestamp older than five minutes',
        (p) => createSlackSigner(SECRET).request(p, { timestamp: NOW_S - 301 }),
      ],
      [
        'a timestamp more than five minutes ahead',
        (p) => createSlackSigner(SECRET).request(p, { timestamp: NOW_S + 301 }),
      ],
      ['no signature headers', (p) => createSlackSigner(SECRET).request(p, { unsigned: true })],
      [
        'a signature without its timestamp header',
        (p) => {
          const headers = createSlackSigner(SECRET).sign(p.body, NOW_S);
          return request(p, { 'x-slack-signature': headers['x-slack-signature'] });
        },
      ],
      [
        'a tampered body',
        (p) => {
          const headers = createSlackSigner(SECRET).sign(p.body, NOW_S);
          return request({ ...p, body: p.body.replace('hello', 'hellO') }, { ...headers });
        },
      ],
      [
        'an unknown signature version',
        (p) =>
          request(p, {
            ...createSlackSigner(SECRET).sign(p.body, NOW_S, 'v1'),
          }),
      ],
      [
        'a non-numeric timestamp',
        (p) => {
          const headers = createSlackSigner(SECRET).sign(p.body, NOW_S);
          return request(p, { ...headers, 'x-slack-request-timestamp': 'yesterday' });
        },
      ],
    ];

    it.each(refusals)(
      'answers 401 without detail and dispatches nothing for %s',
      async (_, build) => {
        const { adapter, runtime } = unitAdapter();
        const response = await transport.serve(adapter)(
          build(buildMessageEvent({ text: 'hello' })),
        );
        expect(response.status).toBe(401);
        expect(await response.text()).toBe('');
        expect(runtime.dispatched).toHaveLength(0);
        expect(runtime.observed).toContainEqual(
          expect.objectContaining({ type: 'adapter_notice', name: 'signature_rejected' }),
        );
      },
    );

    it('checks the signature of url_verification before echoing the challenge', async () => {
      const { adapter } = unitAdapter();
      const payload = buildUrlVerification('the-challenge');
      const bad = await transport.serve(adapter)(
        createSlackSigner('wrong').request(payload, { timestamp: NOW_S }),
      );
      expect(bad.status).toBe(401);
      const good = await transport.serve(adapter)(
        createSlackSigner(SECRET).request(payload, { timestamp: NOW_S }),
      );
      expect(good.status).toBe(200);
      expect(await good.json()).toEqual({ challenge: 'the-challenge' });
    });

    it('refuses an empty signing secret at construction', () => {
      expect(() => createSlackAdapter({ signingSecret: '', botToken: 'x' })).toThrow(TypeError);
      expect(() => createSlackAdapter({ signingSecret: ['ok', ''], botToken: 'x' })).toThrow(
        /empty/,
      );
      expect(() => createSlackAdapter({ signingSecret: [], botToken: 'x' })).toThrow(TypeError);
    });
  });

  describe('requests that are not dispatched', () => {
    it('answers 200 to the unsigned ssl_check probe without dispatching', async () => {
      const { adapter, runtime } = unitAdapter();
      const response = await transport.serve(adapter)(
        createSlackSigner(SECRET).request(buildSslCheck(), { unsigned: true }),
      );
      expect(response.status).toBe(200);
      expect(runtime.dispatched).toHaveLength(0);
    });

    it('answers 503 before attach, after verifying the signature', async () => {
      const adapter = createSlackAdapter({
        signingSecret: SECRET,
        botToken: 'x',
        clock: () => NOW_MS,
      });
      const payload = buildMessageEvent();
      expect(
        (
          await transport.serve(adapter)(
            createSlackSigner('wrong').request(payload, { timestamp: NOW_S }),
          )
        ).status,
      ).toBe(401);
      const response = await transport.serve(adapter)(
        createSlackSigner(SECRET).request(payload, { timestamp: NOW_S }),
      );
      expect(response.status).toBe(503);
      expect(response.headers.get('x-slack-no-retry')).toBeNull();
    });

    it('answers url_verification and ssl_check before attach (neither is dispatched)', async () => {
      const adapter = createSlackAdapter({
        signingSecret: SECRET,
        botToken: 'x',
        clock: () => NOW_MS,
      });
      const payload = buildUrlVerification('early');
      const response = await transport.serve(adapter)(
        createSlackSigner(SECRET).request(payload, { timestamp: NOW_S }),
      );
      expect(await response.json()).toEqual({ challenge: 'early' });
      const probe = await transport.serve(adapter)(
        createSlackSigner(SECRET).request(buildSslCheck(), { unsigned: true }),
      );
      expect(probe.status).toBe(200);
    });

    it('acknowledges app_rate_limited with 200 and an adapter_notice', async () => {
      const { adapter, runtime } = unitAdapter();
      const response = await transport.serve(adapter)(
        createSlackSigner(SECRET).request(buildAppRateLimited(), { timestamp: NOW_S }),
      );
      expect(response.status).toBe(200);
      expect(runtime.dispatched).toHaveLength(0);
      expect(runtime.observed).toContainEqual(
        expect.objectContaining({
          type: 'adapter_notice',
          name: 'app_rate_limited',
          detail: expect.objectContaining({ teamId: SLACK_TEST_IDS.teamId }),
        }),
      );
    });

    it.each([
      ['the bot user', buildMessageEvent({ user: SLACK_TEST_IDS.botUserId })],
      [
        'a bot_message of our own app',
        buildMessageEvent({
          botId: 'B0OTHER',
          appId: SLACK_TEST_IDS.apiAppId,
          subtype: 'bot_message',
        }),
      ],
      ['an edit notice', buildMessageEvent({ subtype: 'message_changed' })],
      ['a deletion notice', buildMessageEvent({ subtype: 'message_deleted' })],
    ])('acknowledges a message from %s with 200 and does not dispatch it', async (_, payload) => {
      const { adapter, runtime } = unitAdapter();
      const response = await transport.serve(adapter)(
        createSlackSigner(SECRET).request(payload, { timestamp: NOW_S }),
      );
      expect(response.status).toBe(200);
      expect(runtime.dispatched).toHaveLength(0);
    });

    it('dispatches messages of other bots', async () => {
      const { adapter, runtime } = unitAdapter();
      const payload = buildMessageEvent({
        botId: 'B0OTHER',
        appId: 'A0OTHER',
        subtype: 'bot_message',
      });
      await transport.serve(adapter)(
        createSlackSigner(SECRET).request(payload, { timestamp: NOW_S }),
      );
      expect(runtime.dispatched).toHaveLength(1);
    });

    it('answers 405 to anything but POST', async () => {
      const { adapter } = unitAdapter();
      const response = await transport.serve(adapter)(new Request('http://127.0.0.1/slack/events'));
      expect(response.status).toBe(405);
    });
  });

  describe('bad input', () => {
    failOnUnhandledRejections();

    const raw = (contentType: string, body: string): SlackTestPayload => ({
      contentType,
      body,
      data: {},
    });

    it.each([
      ['truncated JSON', raw('application/json', '{"type":"event_callback","event":{"ty')],
      ['a JSON array', raw('application/json', '[1,2,3]')],
      ['an unknown Events API type', jsonPayload({ type: 'mystery' })],
      [
        'an event_callback without an event',
        jsonPayload({ type: 'event_callback', event_id: 'Ev1' }),
      ],
      [
        'a form body without payload or command',
        raw('application/x-www-form-urlencoded', 'a=1&b=2'),
      ],
      [
        'a payload field that is not JSON',
        raw('application/x-www-form-urlencoded', 'payload=%7Bnope'),
      ],
      ['an unknown interactive payload type', interactivePayload({ type: 'dialog_submission' })],
      [
        'a slash command without a team',
        { ...buildSlashCommand(), body: buildSlashCommand().body.replace(/team_id=[^&]*&?/, '') },
      ],
    ])('answers 400 and dispatches nothing for %s', async (_, payload) => {
      const { adapter, runtime } = unitAdapter();
      const response = await transport.serve(adapter)(
        createSlackSigner(SECRET).request(payload, { timestamp: NOW_S }),
      );
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/^Bad Request/);
      expect(runtime.dispatched).toHaveLength(0);
    });

    it('answers a retry-inducing 503 and a notice when dispatch throws something unexpected', async () => {
      const runtime = fakeRuntimeHandle(async () => {
        throw new Error('boom');
      });
      const { adapter } = unitAdapter(runtime);
      const response = await transport.serve(adapter)(
        createSlackSigner(SECRET).request(buildMessageEvent(), { timestamp: NOW_S }),
      );
      expect(response.status).toBe(503);
      expect(runtime.observed).toContainEqual(
        expect.objectContaining({ type: 'adapter_notice', name: 'dispatch_error' }),
      );
    });
  });

  describe('retry metadata', () => {
    it('carries x-slack-retry-num and x-slack-retry-reason on event.retry', async () => {
      const { adapter, runtime } = unitAdapter();
      await transport.serve(adapter)(
        createSlackSigner(SECRET).request(buildMessageEvent(), {
          timestamp: NOW_S,
          headers: { 'x-slack-retry-num': '2', 'x-slack-retry-reason': 'http_timeout' },
        }),
      );
      expect(runtime.dispatched[0]?.retry).toEqual({ attempt: 2, reason: 'http_timeout' });
    });

    it('passes a deadline signal to sync dispatches only', async () => {
      const signals: (AbortSignal | undefined)[] = [];
      const runtime = fakeRuntimeHandle(async (_event, options) => {
        signals.push(options?.signal);
        return { status: 'unrouted' };
      });
      let mode: 'sync' | 'deferred' = 'deferred';
      runtime.modeFor = () => mode;
      const { adapter } = unitAdapter(runtime);
      await transport.serve(adapter)(
        createSlackSigner(SECRET).request(buildMessageEvent(), { timestamp: NOW_S }),
      );
      mode = 'sync';
      await transport.serve(adapter)(
        createSlackSigner(SECRET).request(buildMessageEvent(), { timestamp: NOW_S }),
      );
      expect(signals[0]).toBeUndefined();
      expect(signals[1]).toBeInstanceOf(AbortSignal);
    });
  });

  describe('an unexpected failure inside the handler', () => {
    it('is answered 500 (retry-inducing) with a request_failed notice, never a rejection', async () => {
      const runtime = fakeRuntimeHandle();
      const bug = new Error('clock broke');
      const adapter = createSlackAdapter({
        signingSecret: SECRET,
        botToken: 'xoxb-unit',
        clock: () => {
          throw bug;
        },
      });
      adapter.attach(runtime);
      const response = await transport.serve(adapter)(
        createSlackSigner(SECRET).request(buildMessageEvent(), { timestamp: NOW_S }),
      );
      expect(response.status).toBe(500);
      expect(response.headers.get('x-slack-no-retry')).toBeNull();
      expect(runtime.dispatched).toEqual([]);
      expect(runtime.observed).toMatchObject([
        { type: 'adapter_notice', name: 'request_failed', error: bug },
      ]);
    });
  });
});
