import { actions, button, card, escapeText, fields, formErrors } from '@rt/core';
import { EVERY_ELEMENT_CARD, EVERY_FIELD_FORM } from '@rt/testing';
import { validateSlackMessage, validateSlackView } from '@rt/testing/slack';
import { describe, expect, it } from 'vitest';
import { renderSlackForm, renderSlackMessage, slackFormErrors } from './block-kit.js';
import { toMrkdwn } from './mrkdwn.js';

describe('Block Kit rendering', () => {
  it('renders a card of every element kind (golden) that Slack accepts', async () => {
    const payload = renderSlackMessage(EVERY_ELEMENT_CARD);
    await expect(`${JSON.stringify(payload, null, 2)}\n`).toMatchFileSnapshot(
      './__golden__/card.json',
    );
    expect(validateSlackMessage(payload)).toEqual([]);
  });

  it('renders a form of every field kind (golden) that Slack accepts', async () => {
    const view = renderSlackForm(EVERY_FIELD_FORM);
    await expect(`${JSON.stringify(view, null, 2)}\n`).toMatchFileSnapshot(
      './__golden__/form.json',
    );
    expect(validateSlackView(view)).toEqual([]);
  });

  it('writes markdown-subset text as mrkdwn and escapes user text', () => {
    expect(toMrkdwn('**b** _i_ ~~s~~ `c` [l](https://x.io) <@U1> <#C1>')).toBe(
      '*b* _i_ ~s~ `c` <https://x.io|l> <@U1> <#C1>',
    );
    expect(toMrkdwn('- one\n1. two\n> q')).toBe('• one\n1. two\n> q');
    expect(toMrkdwn('[a|b](https://x.io/?q=1|2>3)')).toBe('<https://x.io/?q=1%7C2%3E3|a¦b>');
    expect(toMrkdwn(escapeText('<!channel> & *loud*'))).toBe(
      '&lt;!channel&gt; &amp; *\u200bloud*\u200b',
    );
  });

  it('passes { text, extra } through untouched and renders text as mrkdwn', () => {
    expect(renderSlackMessage({ text: '*raw*', extra: { unfurl_links: false } })).toEqual({
      text: '*raw*',
      unfurl_links: false,
    });
    expect(renderSlackMessage('**hi**')).toEqual({ text: '*hi*' });
  });

  it('continues more than ten field pairs in a further section', () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, `v${i}`]));
    const payload = renderSlackMessage(card({}, fields(many)));
    expect(payload.blocks?.map((b) => (b.fields as unknown[]).length)).toEqual([10, 2]);
    expect(validateSlackMessage(payload)).toEqual([]);
  });

  it('answers form errors keyed by field id', () => {
    expect(slackFormErrors(formErrors({ title: 'Required' }))).toEqual({
      response_action: 'errors',
      errors: { title: 'Required' },
    });
  });

  it('keeps action ids unique within a block when two buttons share a neutral id', () => {
    const payload = renderSlackMessage(
      card(
        {},
        actions(button('vote', 'Yes', { value: 'y' }), button('vote', 'No', { value: 'n' })),
      ),
    );
    const elements = (payload.blocks?.[0]?.elements ?? []) as { action_id: string }[];
    const ids = elements.map((e) => e.action_id);
    expect(ids).toEqual(['vote', 'vote|1']);
    expect(validateSlackMessage(payload)).toEqual([]);
  });
});
