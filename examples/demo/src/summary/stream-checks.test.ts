import { describe, expect, it } from 'vitest';
import { modelAnswer, modelChunks } from '../bot/model.js';
import {
  classifyReply,
  type StreamCheckInput,
  type StreamedReply,
  streamedRepliesHonest,
} from './stream-checks.js';

const MARKERS = { interrupted: '\n\n_(interrupted)_', error: '\n\n_(error)_' };

/** Two whole replies on Slack's two paths, one interrupted Discord reply cut after two chunks. */
function goodRun(): StreamCheckInput {
  const cut = modelChunks('m3').slice(0, 2).join('');
  const replies: StreamedReply[] = [
    { platform: 'Slack', id: 'Ev1', path: 'slack-stream', text: modelAnswer('Ev1') },
    { platform: 'Slack', id: 'Ev2', path: 'slack-update', text: modelAnswer('Ev2') },
    { platform: 'Discord', id: 'm3', path: 'discord-edit', text: cut + MARKERS.interrupted },
  ];
  return {
    replies,
    observed: new Map([
      ['Slack slack-stream completed', 1],
      ['Slack slack-update completed', 1],
      ['Discord discord-edit interrupted', 1],
    ]),
    modelStops: 1,
    markers: MARKERS,
  };
}

function withReply(input: StreamCheckInput, index: number, text: string): StreamCheckInput {
  const replies = input.replies.map((reply, i) => (i === index ? { ...reply, text } : reply));
  return { ...input, replies };
}

describe('the streamed-replies invariant', () => {
  it('passes a run whose replies are whole or end with the marker, as the bot observed', () => {
    const verdict = streamedRepliesHonest(goodRun());
    expect(verdict.passed, verdict.detail).toBe(true);
    expect(verdict.detail).toContain('Discord discord-edit interrupted 1');
    expect(verdict.detail).toContain('1 replies cut short');
  });

  it('the model answer is its chunks joined, deterministic per delivery id', () => {
    expect(modelChunks('Ev1').join('')).toBe(modelAnswer('Ev1'));
    expect(modelAnswer('Ev1')).toBe(modelAnswer('Ev1'));
    expect(modelAnswer('Ev1')).not.toBe(modelAnswer('Ev2'));
  });

  it('fails on a half-written message: a prefix of the full text without the marker', () => {
    const prefix = modelChunks('Ev1').slice(0, 3).join('');
    expect(classifyReply('Ev1', prefix, MARKERS)).toBe('half-written');
    const verdict = streamedRepliesHonest(withReply(goodRun(), 0, prefix));
    expect(verdict.passed).toBe(false);
    expect(verdict.detail).toContain('1 half-written without a marker');
  });

  it('fails on a marker after text that is not a prefix of the right answer', () => {
    const wrong = modelChunks('Ev2').slice(0, 2).join('') + MARKERS.interrupted;
    expect(classifyReply('m3', wrong, MARKERS)).toBe('half-written');
    const verdict = streamedRepliesHonest(withReply(goodRun(), 2, wrong));
    expect(verdict.passed).toBe(false);
  });

  it('accepts the marker alone (nothing shown yet) and the whole text with the marker', () => {
    expect(classifyReply('Ev1', MARKERS.interrupted, MARKERS)).toBe('interrupted');
    expect(classifyReply('Ev1', modelAnswer('Ev1') + MARKERS.interrupted, MARKERS)).toBe(
      'interrupted',
    );
    expect(classifyReply('Ev1', `${modelAnswer('Ev1')} more`, MARKERS)).toBe('half-written');
  });

  it("fails when the bot's stream_finished counts differ from the platforms' record", () => {
    const observed = new Map(goodRun().observed);
    observed.set('Discord discord-edit interrupted', 0);
    observed.set('Discord discord-edit completed', 1);
    const verdict = streamedRepliesHonest({ ...goodRun(), observed });
    expect(verdict.passed).toBe(false);
    expect(verdict.detail).toContain('differs');
  });

  it('fails when a reply was cut short but the model never saw return()', () => {
    expect(streamedRepliesHonest({ ...goodRun(), modelStops: 0 }).passed).toBe(false);
    expect(streamedRepliesHonest({ ...goodRun(), modelStops: 2 }).passed).toBe(false);
  });
});
