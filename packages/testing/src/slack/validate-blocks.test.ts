import { describe, expect, it } from 'vitest';
import { validateSlackMessage, validateSlackView } from './validate-blocks.js';

const plain = (text: string) => ({ type: 'plain_text', text });

describe('Slack block validation (as the fake applies it)', () => {
  it('accepts well-formed blocks', () => {
    expect(
      validateSlackMessage({
        text: 'fallback',
        blocks: [
          { type: 'header', text: plain('Title') },
          { type: 'section', text: { type: 'mrkdwn', text: '*hi*' } },
          { type: 'actions', elements: [{ type: 'button', action_id: 'a', text: plain('Go') }] },
        ],
      }),
    ).toEqual([]);
  });

  it('refuses unknown blocks, missing text, too many blocks and bad elements', () => {
    expect(validateSlackMessage({ blocks: [{ type: 'carousel' }] })[0]).toMatch(
      /unsupported block type/,
    );
    expect(validateSlackMessage({})[0]).toMatch(/text or blocks is required/);
    const many = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    expect(validateSlackMessage({ text: 't', blocks: many })[0]).toMatch(/at most 50 items/);
    expect(
      validateSlackMessage({
        text: 't',
        blocks: [{ type: 'actions', elements: [{ type: 'button', text: plain('x'.repeat(76)) }] }],
      })[0],
    ).toMatch(/json-pointer:\/blocks\/0\/elements\/0\/text\/text/);
    expect(
      validateSlackMessage({
        text: 't',
        blocks: [{ type: 'input', label: plain('L'), element: {} }],
      })[0],
    ).toMatch(/only valid in modals/);
  });

  it('refuses modals without a title, or inputs without a submit button', () => {
    expect(validateSlackView({ type: 'modal', blocks: [] })[0]).toMatch(/view\/title/);
    const input = { type: 'input', label: plain('L'), element: { type: 'plain_text_input' } };
    expect(validateSlackView({ type: 'modal', title: plain('T'), blocks: [input] })).toEqual([
      '[ERROR] is required with input blocks [json-pointer:/view/submit]',
    ]);
    expect(
      validateSlackView({ type: 'modal', title: plain('x'.repeat(25)), blocks: [] })[0],
    ).toMatch(/less than 25/);
  });
});
