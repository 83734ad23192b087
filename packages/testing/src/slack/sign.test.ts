import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildMessageEvent } from './event-payloads.js';
import { buildBlockActions, buildSlashCommand } from './interactive-payloads.js';
import { signedSlackRequest, signSlackRequest } from './sign.js';

describe('signSlackRequest', () => {
  it('signs v0:{timestamp}:{body} with HMAC-SHA256', () => {
    const headers = signSlackRequest({ secret: 's3cret', body: 'a=1', timestamp: 1_700_000_000 });
    const expected = createHmac('sha256', 's3cret').update('v0:1700000000:a=1').digest('hex');
    expect(headers).toEqual({
      'x-slack-request-timestamp': '1700000000',
      'x-slack-signature': `v0=${expected}`,
    });
  });

  it('builds a signed POST with the payload content type', async () => {
    const payload = buildSlashCommand({ command: '/x' });
    const request = signedSlackRequest({
      secret: 's',
      payload,
      headers: { 'x-slack-retry-num': '1' },
    });
    expect(request.method).toBe('POST');
    expect(request.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(request.headers.get('x-slack-signature')).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(request.headers.get('x-slack-retry-num')).toBe('1');
    expect(await request.text()).toBe(payload.body);
  });
});

describe('payload builders', () => {
  it('encode interactive payloads as payload=<json> and events as JSON', () => {
    const action = buildBlockActions();
    expect(JSON.parse(new URLSearchParams(action.body).get('payload') ?? '')).toEqual(action.data);
    const message = buildMessageEvent();
    expect(JSON.parse(message.body)).toEqual(message.data);
    expect(message.data.event_id).not.toBe(buildMessageEvent().data.event_id);
  });
});
