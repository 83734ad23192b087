import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeDiscordRest, startFakeDiscordRest } from './fake-rest.js';

describe('the fake Discord REST', () => {
  let fake: FakeDiscordRest;
  const call = (method: string, path: string, body?: unknown, token?: string) =>
    fetch(`${fake.url}/v10${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token === undefined ? {} : { authorization: `Bot ${token}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  beforeEach(async () => {
    fake = await startFakeDiscordRest({ tokens: ['t0k'] });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('listens on 127.0.0.1 and records calls with route, params, body and token', async () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    fake.knowInteraction({ token: 'itok', channel_id: '42' });
    const response = await call('POST', '/webhooks/1/itok', { content: 'hi' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      channel_id: '42',
      content: 'hi',
      webhook_id: '1',
    });
    await call('PATCH', '/webhooks/1/itok/messages/%40original', { content: 'edit' });
    expect(fake.calls.map((c) => [c.route, c.params, c.body, c.token])).toEqual([
      [
        'POST /webhooks/:application/:token',
        { application: '1', token: 'itok' },
        { content: 'hi' },
        undefined,
      ],
      [
        'PATCH /webhooks/:application/:token/messages/:message',
        { application: '1', token: 'itok', message: '@original' },
        { content: 'edit' },
        undefined,
      ],
    ]);
  });

  it('answers empty results 204 without a content type', async () => {
    const response = await call(
      'PUT',
      '/channels/1/messages/2/reactions/%F0%9F%91%8D/@me',
      undefined,
      't0k',
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('content-type')).toBeNull();
    expect(fake.calls[0]?.params.emoji).toBe('👍');
  });

  it('refuses bot routes without a known bot token, and unknown routes', async () => {
    expect((await call('POST', '/channels/1/messages', { content: 'x' })).status).toBe(401);
    expect((await call('POST', '/channels/1/messages', { content: 'x' }, 'other')).status).toBe(
      401,
    );
    expect((await call('POST', '/channels/1/messages', { content: 'x' }, 't0k')).status).toBe(200);
    expect((await call('GET', '/nowhere', undefined, 't0k')).status).toBe(404);
  });

  it('fails a route a given number of times with Discord’s error shape', async () => {
    fake.fail('POST /channels/:channel/messages', {
      status: 403,
      code: 50013,
      message: 'Missing Permissions',
      times: 1,
    });
    const failed = await call('POST', '/channels/1/messages', { content: 'x' }, 't0k');
    expect(failed.status).toBe(403);
    expect(await failed.json()).toEqual({ code: 50013, message: 'Missing Permissions' });
    expect((await call('POST', '/channels/1/messages', { content: 'x' }, 't0k')).status).toBe(200);
  });

  it('refuses bodies Discord would refuse with 400 Invalid Form Body and records why', async () => {
    const empty = await call('POST', '/channels/1/messages', {}, 't0k');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: 50035 });
    const mixed = await call(
      'POST',
      '/channels/1/messages',
      { flags: 1 << 15, content: 'no', components: [{ type: 10, content: 'x' }] },
      't0k',
    );
    expect(mixed.status).toBe(400);
    const modal = await call('POST', '/interactions/1/tok/callback', {
      type: 9,
      data: { title: 'T' },
    });
    expect(modal.status).toBe(400);
    expect(fake.rejections.map((r) => r.errors[0])).toEqual([
      'content: cannot send an empty message',
      'content: cannot be used with IS_COMPONENTS_V2',
      'data.custom_id: must be a non-empty string',
    ]);
  });

  it('pages seeded history newest first with limit and before', async () => {
    fake.seedMessages('9', [{ id: '1' }, { id: '2' }, { id: '3' }]);
    const first = await (
      await call('GET', '/channels/9/messages?limit=2', undefined, 't0k')
    ).json();
    expect(first).toEqual([{ id: '3' }, { id: '2' }]);
    const next = await (
      await call('GET', '/channels/9/messages?limit=2&before=2', undefined, 't0k')
    ).json();
    expect(next).toEqual([{ id: '1' }]);
  });

  it('waits for calls, and says how many arrived when they do not', async () => {
    const waiting = fake.waitForCalls('POST /webhooks/:application/:token', 1);
    await call('POST', '/webhooks/1/x', { content: 'a' });
    expect(await waiting).toHaveLength(1);
    await expect(fake.waitForCalls('GET /gateway/bot', 1, 20)).rejects.toThrow(/got 0 of 1/);
  });
});
