/**
 * The offline run (`pnpm offline`) against the fakes of `@rt/testing` and the AI SDK's mock model:
 * each platform shows exactly the model's streamed output, and a message sent while an answer
 * streamed reaches the next run in `ctx.skipped`.
 */
import { DISCORD_TEST_IDS } from '@rt/testing/discord';
import { describe, expect, it } from 'vitest';
import { mockAnswer } from './model.js';
import { runOffline } from './offline.js';

describe('runOffline', () => {
  it('streams the mock model on both platforms and answers queued messages with ctx.skipped', async () => {
    const run = await runOffline();

    expect(run.answers).toEqual([
      mockAnswer('what is a thread lock?'),
      mockAnswer(
        'While you were answering, 1 more message(s) arrived:\n- and a fence?\nand then: answer both, please',
      ),
      mockAnswer('hello from Discord'),
      mockAnswer('follow this thread'),
      mockAnswer('still there?'),
    ]);
    // The final text on each platform is the model's output, nothing lost, nothing added.
    expect(run.slack.map((m) => m.text)).toEqual([run.answers[0], run.answers[1]]);
    expect(run.discord.map((m) => m.text)).toEqual(run.answers.slice(2));
    // Both Slack answers are in the mention's thread.
    expect(run.slack.map((m) => m.thread)).toEqual(['1700000001.000100', '1700000001.000100']);
    // The message sent while the first answer streamed was superseded, and its successor saw it.
    expect(run.skipped).toEqual(['and a fence?']);
    // The running summary (fenced thread state) written after the first answer is the context
    // of the second; the Discord mention, outside a thread, has none.
    expect(run.systems[0]).not.toContain('The conversation so far');
    expect(run.systems[1]).toContain('The conversation so far:\nU0USER: what is a thread lock?');
    expect(run.systems[2]).not.toContain('The conversation so far');
    expect(run.systems[3]).not.toContain('The conversation so far');
    expect(run.systems[4]).toContain(
      `The conversation so far:\n${DISCORD_TEST_IDS.userId}: follow this thread`,
    );
    const outcomes = run.observations.flatMap((o) =>
      o.type === 'dispatch_finished' ? [o.outcome] : [],
    );
    expect(outcomes.sort()).toEqual([...Array(5).fill('completed'), 'superseded']);
    const streams = run.observations.flatMap((o) =>
      o.type === 'stream_finished' ? [`${o.adapter}:${o.status}`] : [],
    );
    expect(streams).toEqual([
      'slack:completed',
      'slack:completed',
      ...Array(3).fill('discord:completed'),
    ]);
  });

  it('writes a slow answer in several steps, ending with the whole text', async () => {
    const run = await runOffline({ chunkDelayMs: 150 });
    expect(run.slack.map((m) => m.text)).toEqual([run.answers[0], run.answers[1]]);
    expect(run.discord.map((m) => m.text)).toEqual(run.answers.slice(2));
    for (const o of run.observations) {
      if (o.type === 'stream_finished') expect(o.writes).toBeGreaterThan(1);
    }
  }, 30_000);
});
