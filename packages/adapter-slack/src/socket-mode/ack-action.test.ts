import { describe, expect, it } from 'vitest';
import { ackActionOf } from './ack-action.js';

describe('ackActionOf', () => {
  it('acks plainly for an empty acknowledgement and withholds the ack for a retry', async () => {
    expect(await ackActionOf({ kind: 'empty' }, true)).toEqual({ kind: 'ack' });
    expect(await ackActionOf({ kind: 'retry' }, false)).toEqual({ kind: 'withhold' });
    expect(await ackActionOf({ kind: 'retry', reason: 'not attached' }, true)).toEqual({
      kind: 'withhold',
      reason: 'not attached',
    });
  });

  it('carries a JSON body or a text as the payload where the envelope accepts one', async () => {
    const body = { response_type: 'ephemeral', text: 'busy' };
    expect(await ackActionOf({ kind: 'json', body }, true)).toEqual({ kind: 'ack', payload: body });
    expect(await ackActionOf({ kind: 'text', text: 'hi' }, true)).toEqual({
      kind: 'ack',
      payload: { text: 'hi' },
    });
  });

  it('acks without the body, and says so, where the envelope accepts no payload', async () => {
    expect(await ackActionOf({ kind: 'json', body: { a: 1 } }, false)).toEqual({
      kind: 'ack',
      dropped: 'the envelope accepts no response payload',
    });
    expect(await ackActionOf({ kind: 'json', body: [1, 2] }, true)).toMatchObject({
      kind: 'ack',
      dropped: expect.stringMatching(/not a JSON object/),
    });
  });

  it('acks an invalid payload so Slack does not redeliver it, noting the reason', async () => {
    expect(await ackActionOf({ kind: 'invalid', reason: 'no team' }, true)).toEqual({
      kind: 'ack',
      invalid: 'no team',
    });
  });

  it("sends a sync handler's Response as its JSON body, or its text", async () => {
    const json = Response.json({ response_action: 'clear' });
    expect(await ackActionOf({ kind: 'response', response: json }, true)).toEqual({
      kind: 'ack',
      payload: { response_action: 'clear' },
    });
    const text = new Response('plain words');
    expect(await ackActionOf({ kind: 'response', response: text }, true)).toEqual({
      kind: 'ack',
      payload: { text: 'plain words' },
    });
    expect(await ackActionOf({ kind: 'response', response: new Response(null) }, true)).toEqual({
      kind: 'ack',
    });
    const broken = new Response('{nope', { headers: { 'content-type': 'application/json' } });
    expect(await ackActionOf({ kind: 'response', response: broken }, true)).toMatchObject({
      kind: 'ack',
      dropped: expect.stringMatching(/invalid JSON/),
    });
  });
});
