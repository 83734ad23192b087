import { afterEach, describe, expect, it } from 'vitest';
import { type FakeSlackApi, startFakeSlackApi } from './fake-web-api.js';

async function call(fake: FakeSlackApi, method: string, body: Record<string, unknown>) {
  const response = await fetch(`${fake.url}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer xoxb-t' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

const RECIPIENT = { recipient_user_id: 'U1', recipient_team_id: 'T1' };

describe('fake Slack messages and streams', () => {
  let fake: FakeSlackApi;
  afterEach(async () => {
    await fake.close();
  });

  it('grows a native stream and refuses to append to or stop a stopped one', async () => {
    fake = await startFakeSlackApi();
    const started = await call(fake, 'chat.startStream', {
      channel: 'C1',
      thread_ts: '1.1',
      markdown_text: 'Hel',
      ...RECIPIENT,
    });
    expect(started.body).toMatchObject({ ok: true, channel: 'C1' });
    const ts = String(started.body.ts);
    expect(
      (await call(fake, 'chat.appendStream', { channel: 'C1', ts, markdown_text: 'lo' })).body,
    ).toMatchObject({ ok: true });
    expect(
      (await call(fake, 'chat.stopStream', { channel: 'C1', ts, markdown_text: '!' })).body,
    ).toMatchObject({ ok: true, message: { text: 'Hello!' } });
    expect(
      (await call(fake, 'chat.appendStream', { channel: 'C1', ts, markdown_text: 'x' })).body,
    ).toEqual({ ok: false, error: 'message_not_in_streaming_state' });
    expect((await call(fake, 'chat.stopStream', { channel: 'C1', ts })).body).toEqual({
      ok: false,
      error: 'message_not_in_streaming_state',
    });
    expect(fake.messages.get('C1', ts)).toMatchObject({ text: 'Hello!', stream: 'stopped' });
  });

  it('refuses chat.startStream in the channels given as streamRefusals, only there', async () => {
    fake = await startFakeSlackApi({ streamRefusals: { C2: 'feature_not_enabled' } });
    const args = { thread_ts: '1.1', markdown_text: 'x', ...RECIPIENT };
    expect((await call(fake, 'chat.startStream', { channel: 'C2', ...args })).body).toEqual({
      ok: false,
      error: 'feature_not_enabled',
    });
    expect((await call(fake, 'chat.startStream', { channel: 'C1', ...args })).body).toMatchObject({
      ok: true,
      channel: 'C1',
    });
    expect(fake.messages.all().map((message) => message.channel)).toEqual(['C1']);
  });

  it('needs a thread, and a recipient outside a DM, to start a stream', async () => {
    fake = await startFakeSlackApi();
    expect(
      (await call(fake, 'chat.startStream', { channel: 'C1', markdown_text: 'x', ...RECIPIENT }))
        .body,
    ).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect(
      (await call(fake, 'chat.startStream', { channel: 'C1', thread_ts: '1.1' })).body,
    ).toMatchObject({ ok: false, error: 'missing_recipient_user_id' });
    expect(
      (await call(fake, 'chat.startStream', { channel: 'D1', thread_ts: '1.1' })).body,
    ).toMatchObject({ ok: true });
    expect(
      (await call(fake, 'chat.appendStream', { channel: 'C1', ts: '9.9', markdown_text: 'x' }))
        .body,
    ).toMatchObject({ ok: false, error: 'message_not_found' });
  });

  it("answers Slack's documented state errors: a missing team, an empty append, a user's stop, an update of a live stream", async () => {
    fake = await startFakeSlackApi();
    expect(
      (
        await call(fake, 'chat.startStream', {
          channel: 'C1',
          thread_ts: '1.1',
          recipient_user_id: 'U1',
        })
      ).body,
    ).toEqual({ ok: false, error: 'missing_recipient_team_id' });
    const started = await call(fake, 'chat.startStream', {
      channel: 'C1',
      thread_ts: '1.1',
      markdown_text: 'Hi',
      ...RECIPIENT,
    });
    const ts = String(started.body.ts);
    expect((await call(fake, 'chat.appendStream', { channel: 'C1', ts })).body).toEqual({
      ok: false,
      error: 'markdown_text_or_chunks_required',
    });
    expect((await call(fake, 'chat.update', { channel: 'C1', ts, text: 'x' })).body).toEqual({
      ok: false,
      error: 'streaming_state_conflict',
    });
    expect(fake.messages.stopByUser('C1', ts)).toBe(true);
    expect(fake.messages.stopByUser('C1', ts)).toBe(false);
    expect(
      (await call(fake, 'chat.appendStream', { channel: 'C1', ts, markdown_text: 'x' })).body,
    ).toEqual({ ok: false, error: 'stopped_by_user' });
    expect((await call(fake, 'chat.stopStream', { channel: 'C1', ts })).body).toEqual({
      ok: false,
      error: 'message_not_in_streaming_state',
    });
    expect(fake.messages.get('C1', ts)).toMatchObject({
      text: 'Hi',
      stream: 'stopped',
      stoppedBy: 'user',
    });
  });

  it('keeps the text chat.update gives, and answers 429 with Retry-After past the rate limit', async () => {
    fake = await startFakeSlackApi({
      rateLimits: { 'chat.update': { limit: 2, windowMs: 60_000 } },
    });
    const posted = await call(fake, 'chat.postMessage', { channel: 'C1', text: 'a' });
    const ts = String(posted.body.ts);
    expect((await call(fake, 'chat.update', { channel: 'C1', ts, text: 'ab' })).status).toBe(200);
    expect((await call(fake, 'chat.update', { channel: 'C1', ts, text: 'abc' })).status).toBe(200);
    const refused = await call(fake, 'chat.update', { channel: 'C1', ts, text: 'abcd' });
    expect(refused).toMatchObject({ status: 429, body: { ok: false, error: 'ratelimited' } });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(59);
    expect(fake.messages.get('C1', ts)).toMatchObject({ text: 'abc', edits: 2 });
    expect(fake.messages.refused.get('chat.update')).toBe(1);
  });

  it('refuses a text longer than Slack takes with msg_too_long', async () => {
    fake = await startFakeSlackApi();
    const answer = await call(fake, 'chat.postMessage', {
      channel: 'C1',
      text: 'x'.repeat(40_001),
    });
    expect(answer.body).toEqual({ ok: false, error: 'msg_too_long' });
  });

  it('records assistant thread status, prompts and titles', async () => {
    fake = await startFakeSlackApi();
    await call(fake, 'assistant.threads.setStatus', {
      channel_id: 'D1',
      thread_ts: '1.1',
      status: 'is thinking…',
    });
    await call(fake, 'assistant.threads.setTitle', {
      channel_id: 'D1',
      thread_ts: '1.1',
      title: 'T',
    });
    expect(fake.messages.assistant.map((entry) => entry.method)).toEqual(['setStatus', 'setTitle']);
    expect((await call(fake, 'assistant.threads.setStatus', { status: 'x' })).body).toMatchObject({
      ok: false,
    });
  });
});
