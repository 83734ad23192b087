import type { DispatchResult, RtEvent } from '@rt/core';
import { toResponse } from '@rt/core/adapter';
import { describe, expect, it } from 'vitest';
import { httpAnswerOf } from '../http/http-answer.js';
import { answerForResult } from './result-answer.js';

const texts = { busyText: 'busy', unavailableText: 'unavailable' };

function event(shape: string, payload: Record<string, unknown> = {}): RtEvent {
  return { adapter: 'slack', tenant: 'T', id: 'x', kind: 'raw', shape, receivedAt: 0, payload };
}

async function bodyOf(result: DispatchResult, shape: string, payload?: Record<string, unknown>) {
  const response = toResponse(
    httpAnswerOf(answerForResult(event(shape, payload), result, texts).ack),
  );
  const text = await response.text();
  return {
    status: response.status,
    body: text.length > 0 && text.startsWith('{') ? JSON.parse(text) : text,
  };
}

describe('answers to sync dispatch results', () => {
  it('turns a slash command handler string into an ephemeral reply', async () => {
    expect(
      await bodyOf(
        { status: 'completed', outcome: 'completed', response: 'done' },
        'slash_command',
      ),
    ).toEqual({
      status: 200,
      body: { response_type: 'ephemeral', text: 'done' },
    });
  });

  it('sends a handler object as the JSON ack (view_submission response_action)', async () => {
    const response = { response_action: 'errors', errors: { b: 'no' } };
    expect(
      await bodyOf({ status: 'completed', outcome: 'completed', response }, 'view_submission'),
    ).toEqual({
      status: 200,
      body: response,
    });
  });

  it('wraps a returned array as block_suggestion options, and answers none with an empty list', async () => {
    const options = [{ text: { type: 'plain_text', text: 'A' }, value: 'a' }];
    expect(
      await bodyOf(
        { status: 'completed', outcome: 'completed', response: options },
        'block_suggestion',
      ),
    ).toEqual({
      status: 200,
      body: { options },
    });
    expect(await bodyOf({ status: 'unrouted' }, 'block_suggestion')).toEqual({
      status: 200,
      body: { options: [] },
    });
  });

  it('never fakes success for a sync handler that failed: unavailable wording', async () => {
    const failed = await bodyOf(
      { status: 'completed', outcome: 'failed', error: new Error('x') },
      'slash_command',
    );
    expect(failed.body).toEqual({ response_type: 'ephemeral', text: 'unavailable' });
    const dropped = await bodyOf({ status: 'completed', outcome: 'dropped' }, 'view_submission', {
      view: { blocks: [{ type: 'input', block_id: 'b1' }] },
    });
    expect(dropped.body).toEqual({ response_action: 'errors', errors: { b1: 'busy' } });
  });

  it('acknowledges an accepted, duplicate or unrouted delivery with an empty 200', async () => {
    for (const result of [{ status: 'unrouted' }, { status: 'duplicate' }] as DispatchResult[]) {
      expect(await bodyOf(result, 'event_callback')).toEqual({ status: 200, body: '' });
    }
  });
});
