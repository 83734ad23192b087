import { afterEach, describe, expect, it } from 'vitest';
import { type FakeSlackApi, startFakeSlackApi } from './fake-web-api.js';

async function call(
  fake: FakeSlackApi,
  method: string,
  body: Record<string, unknown>,
  token = 'xoxb-t',
) {
  const response = await fetch(`${fake.url}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('startFakeSlackApi', () => {
  let fake: FakeSlackApi;
  afterEach(async () => {
    await fake.close();
  });

  it('listens on 127.0.0.1 and records calls with method, args and token', async () => {
    fake = await startFakeSlackApi();
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
    const posted = await call(fake, 'chat.postMessage', { channel: 'C1', text: 'hi' });
    expect(posted.body).toMatchObject({ ok: true, channel: 'C1', ts: expect.any(String) });
    expect(fake.calls).toEqual([
      {
        method: 'chat.postMessage',
        args: { channel: 'C1', text: 'hi' },
        token: 'xoxb-t',
        path: '/api/chat.postMessage',
      },
    ]);
  });

  it('decodes form bodies as WebClient sends them', async () => {
    fake = await startFakeSlackApi();
    await fetch(`${fake.url}views.open`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: 'xoxb-f',
        trigger_id: 't',
        view: JSON.stringify({ type: 'modal' }),
      }),
    });
    expect(fake.calls[0]).toMatchObject({
      token: 'xoxb-f',
      args: { trigger_id: 't', view: { type: 'modal' } },
    });
  });

  it('serves seeded threads, thread replies it was sent, and pages by cursor', async () => {
    fake = await startFakeSlackApi();
    fake.seedReplies('C1', '1.0', [{ ts: '1.0', text: 'root' }]);
    await call(fake, 'chat.postMessage', { channel: 'C1', thread_ts: '1.0', text: 'reply' });
    const first = await call(fake, 'conversations.replies', { channel: 'C1', ts: '1.0', limit: 1 });
    expect(first.body).toMatchObject({ messages: [{ text: 'root' }], has_more: true });
    const cursor = (first.body.response_metadata as { next_cursor: string }).next_cursor;
    const second = await call(fake, 'conversations.replies', {
      channel: 'C1',
      ts: '1.0',
      limit: 1,
      cursor,
    });
    expect(second.body).toMatchObject({ messages: [{ text: 'reply' }], has_more: false });
    expect((await call(fake, 'conversations.replies', { channel: 'C9', ts: '1' })).body).toEqual({
      ok: false,
      error: 'thread_not_found',
    });
  });

  it('fails a method on request, a limited number of times', async () => {
    fake = await startFakeSlackApi();
    fake.fail('views.push', { error: 'expired_trigger_id', times: 1 });
    const view = { type: 'modal', title: { type: 'plain_text', text: 'T' }, blocks: [] };
    expect((await call(fake, 'views.push', { view })).body).toEqual({
      ok: false,
      error: 'expired_trigger_id',
    });
    expect((await call(fake, 'views.push', { view })).body).toMatchObject({ ok: true });
  });

  it('records response_url posts and refuses calls without a token', async () => {
    fake = await startFakeSlackApi();
    const url = fake.responseUrl();
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"x"}',
    });
    expect(fake.callsTo('response_url')).toEqual([
      {
        method: 'response_url',
        args: { text: 'x' },
        token: undefined,
        path: new URL(url).pathname,
      },
    ]);
    const anonymous = await fetch(`${fake.url}auth.test`, { method: 'POST' });
    expect(await anonymous.json()).toEqual({ ok: false, error: 'not_authed' });
  });

  it('waits for calls, and drops hanging ones on close', async () => {
    fake = await startFakeSlackApi();
    fake.hang('views.open');
    const pending = call(fake, 'views.open', {}).catch((error: unknown) => error);
    await fake.waitForCalls('views.open');
    await fake.close();
    expect(await pending).toBeInstanceOf(Error);
  });

  it('refuses blocks and views Slack would refuse, and records why', async () => {
    fake = await startFakeSlackApi();
    const tooLong = { type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } };
    const refused = await call(fake, 'chat.postMessage', { channel: 'C1', blocks: [tooLong] });
    expect(refused.body).toMatchObject({ ok: false, error: 'invalid_blocks' });
    const view = await call(fake, 'views.open', {
      trigger_id: 't',
      view: { type: 'modal', blocks: [] },
    });
    expect(view.body).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect(fake.rejections.map((r) => r.method)).toEqual(['chat.postMessage', 'views.open']);
    expect(fake.rejections[0]?.errors).toEqual([
      '[ERROR] must be less than 151 characters [json-pointer:/blocks/0/text/text]',
    ]);
  });
});
