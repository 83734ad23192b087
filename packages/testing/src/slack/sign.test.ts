import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildMessageEvent } from './event-payloads.js';
import { buildBlockActions, buildSlashCommand } from './interactive-payloads.js';
import { createSlackSigner } from './sign.js';

describe('createSlackSigner', () => {
  it('signs v0:{timestamp}:{body} with HMAC-SHA256', () => {
    const headers = createSlackSigner('s3cret').sign('a=1', 1_700_000_000);
    const expected = createHmac('sha256', 's3cret').update('v0:1700000000:a=1').digest('hex');
    expect(headers).toEqual({
      'x-slack-request-timestamp': '1700000000',
      'x-slack-signature': `v0=${expected}`,
    });
  });

  it('builds a signed POST with the payload content type', async () => {
    const payload = buildSlashCommand({ command: '/x' });
    const request = createSlackSigner('s').request(payload, {
      headers: { 'x-slack-retry-num': '1' },
    });
    expect(request.method).toBe('POST');
    expect(request.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(request.headers.get('x-slack-signature')).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(request.headers.get('x-slack-retry-num')).toBe('1');
    expect(await request.text()).toBe(payload.body);
  });

  it('sends an unsigned request, and refuses an empty secret', () => {
    const request = createSlackSigner('s').request(buildMessageEvent(), { unsigned: true });
    expect(request.headers.get('x-slack-signature')).toBeNull();
    expect(request.headers.get('x-slack-request-timestamp')).toBeNull();
    expect(() => createSlackSigner('')).toThrow(TypeError);
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
