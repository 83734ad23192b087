import { describe, expect, it } from 'vitest';
import { runOffline } from './offline.js';

describe('pnpm offline: the same handlers answer on Slack and on Discord', () => {
  it('answers the mention and /status on Slack (HTTP) and on Discord (gateway and HTTP), reading history on both', async () => {
    const transcript = await runOffline();

    const slackPosts = transcript.slack.filter((call) => call.method === 'chat.postMessage');
    expect(slackPosts.map((call) => call.args.text)).toEqual([
      'Hi <@U0USER>! You reached me on Slack. This conversation has 2 message(s), yours included.',
      expect.stringMatching(/^rt status \(one runtime, Slack and Discord\)\nreceived: 2/),
    ]);
    expect(transcript.slack.filter((call) => call.method === 'conversations.replies')).toHaveLength(
      1,
    );

    const discord = (route: string) => transcript.discord.filter((call) => call.route === route);
    expect(discord('GET /gateway/bot')).toHaveLength(1);
    expect(discord('POST /channels/:channel/messages').map((call) => call.body)).toEqual([
      expect.objectContaining({
        content:
          'Hi <@400000000000000004>! You reached me on Discord. This conversation has 2 message(s), yours included.',
      }),
    ]);
    // The gateway /status was deferred by REST callback; the HTTP one in the HTTP answer.
    expect(discord('POST /interactions/:interaction/:token/callback').map((c) => c.body)).toEqual([
      { type: 5 },
    ]);
    const edits = discord('PATCH /webhooks/:application/:token/messages/:message');
    expect(edits).toHaveLength(2);
    for (const edit of edits) {
      expect((edit.body as { content: string }).content).toMatch(/^rt status/);
    }
  });
});
