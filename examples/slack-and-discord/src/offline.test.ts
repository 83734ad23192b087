import { describe, expect, it } from 'vitest';
import { runOffline } from './offline.js';

describe('pnpm offline: the same handlers answer on Slack and on Discord', () => {
  it('answers a mention with a card, a click, /status and a form on both platforms, every payload accepted', async () => {
    const t = await runOffline();
    expect(t.rejected).toEqual({ slack: [], discord: [] });
    const slack = (method: string) => t.slack.filter((call) => call.method === method);
    const discord = (route: string) => t.discord.filter((call) => call.route === route);

    // The mention: 👀, history read back, a card with buttons and a select.
    expect(slack('reactions.add')[0]?.args).toMatchObject({
      name: 'eyes',
      timestamp: '1700000002.000100',
    });
    expect(slack('conversations.replies')).toHaveLength(1);
    const [card, status, dm] = slack('chat.postMessage');
    expect(card?.args).toMatchObject({
      text: 'Hello! Was this helpful?',
      thread_ts: '1700000000.000100',
    });
    expect(JSON.stringify(card?.args.blocks)).toContain('This conversation has 2 message(s)');
    const mentionCard = discord('POST /channels/:channel/messages')[0]?.body as Record<
      string,
      unknown
    >;
    expect(mentionCard).toMatchObject({ flags: 1 << 15 });
    expect(JSON.stringify(mentionCard)).toContain('This conversation has 2 message(s)');
    expect(JSON.stringify(mentionCard)).toContain('"custom_id":"feedback|no"');

    // The click on "Not helpful": 👎 on the card, an ephemeral thank-you.
    expect(slack('reactions.add')[1]?.args).toMatchObject({ name: 'thumbsdown' });
    expect(slack('response_url')[0]?.args).toMatchObject({
      text: 'Thanks, I will try to do better.',
      response_type: 'ephemeral',
    });
    const reactions = discord('PUT /channels/:channel/messages/:message/reactions/:emoji/@me');
    expect(reactions.map((call) => call.params.emoji)).toEqual(['👀', '👎']);
    expect(discord('POST /webhooks/:application/:token')[0]?.body).toMatchObject({
      content: 'Thanks, I will try to do better.',
      flags: 64,
    });

    // /status, deferred on both.
    expect(status?.args.text).toMatch(/^rt status \(one runtime, Slack and Discord\)/);
    const edits = discord('PATCH /webhooks/:application/:token/messages/:message');
    expect(edits.map((edit) => (edit.body as { content: string }).content)).toEqual([
      expect.stringMatching(/^rt status/),
      expect.stringMatching(/^rt status/),
    ]);

    // /feedback: a modal on both; too short keeps it open (Slack) or says so privately (Discord).
    expect(slack('views.open')[0]?.args.view).toMatchObject({ callback_id: 'feedback-form' });
    expect(t.answers['slack /feedback too short']).toEqual({
      response_action: 'errors',
      errors: { summary: 'Please write at least 3 characters.' },
    });
    expect(t.answers['slack /feedback submit']).toBeUndefined();
    expect(t.answers['discord /feedback']).toMatchObject({
      type: 9,
      data: { custom_id: 'feedback-form' },
    });
    expect(discord('POST /webhooks/:application/:token')[1]?.body).toMatchObject({
      content: '**summary**: Please write at least 3 characters.',
      flags: 64,
    });
    // The right one is thanked in a DM, on both.
    expect(dm?.args).toMatchObject({
      channel: 'DU0USER',
      text: 'Thanks for your feedback: _works well_',
    });
    expect(discord('POST /users/@me/channels')).toHaveLength(1);
    expect(discord('POST /channels/:channel/messages')[1]?.body).toMatchObject({
      content: 'Thanks for your feedback: *works well*',
    });
  });
});
