import { describe, expect, it } from 'vitest';
import {
  type AnswerOptions,
  type AnswerPlatform,
  DEFAULT_ANSWER_OPTIONS,
  resolveAnswerOptions,
  resolveShapeModes,
} from './answer-options.js';

type Shape = 'command' | 'form' | 'suggest';

const platform: AnswerPlatform<Shape> = {
  name: 'Chatland',
  ackLimitMs: 3000,
  shapes: ['command', 'form', 'suggest'],
  dispatchModes: { suggest: 'sync' },
};

describe('resolveAnswerOptions', () => {
  it('fills in the shared defaults and the platform default modes', () => {
    const resolved = resolveAnswerOptions({}, platform);
    expect(resolved).toEqual({
      busyText: DEFAULT_ANSWER_OPTIONS.busyText,
      unavailableText: DEFAULT_ANSWER_OPTIONS.unavailableText,
      busySignalTimeoutMs: 2000,
      ackDeadlineMs: 2500,
      syncDeadlineMs: 2000,
      dispatchModes: { suggest: 'sync' },
      clock: Date.now,
    });
    expect(Object.isFrozen(resolved)).toBe(true);
    expect(Object.isFrozen(resolved.dispatchModes)).toBe(true);
  });

  it('keeps the given values and derives the sync deadline from a custom ack deadline (80 %)', () => {
    const clock = () => 42;
    const resolved = resolveAnswerOptions(
      {
        busyText: 'Busy.',
        unavailableText: 'Down.',
        busySignalTimeoutMs: 500,
        ackDeadlineMs: 1000,
        clock,
      },
      platform,
    );
    expect(resolved).toMatchObject({
      busyText: 'Busy.',
      unavailableText: 'Down.',
      busySignalTimeoutMs: 500,
      ackDeadlineMs: 1000,
      syncDeadlineMs: 800,
    });
    expect(resolved.clock).toBe(clock);
  });

  it('ignores the keys that are not answer options', () => {
    const options = { busyText: 'Busy.', token: 'secret' } as AnswerOptions<Shape>;
    expect(resolveAnswerOptions(options, platform)).not.toHaveProperty('token');
  });

  it('names the platform and its limit when the ack deadline exceeds it', () => {
    expect(() => resolveAnswerOptions({ ackDeadlineMs: 3001 }, platform)).toThrow(
      'ackDeadlineMs must be at most 3000 (Chatland waits 3 s), got 3001',
    );
    expect(() =>
      resolveAnswerOptions({ ackDeadlineMs: 1500 }, { ...platform, ackLimitMs: 1000 }),
    ).toThrow(/at most 1000 \(Chatland waits 1 s\)/);
  });

  it.each([
    [{ ackDeadlineMs: 0 }, /ackDeadlineMs must be a positive integer/],
    [{ ackDeadlineMs: 2.5 }, /ackDeadlineMs must be a positive integer/],
    [{ syncDeadlineMs: 0 }, /syncDeadlineMs must be a positive integer/],
    [{ syncDeadlineMs: 2500 }, /syncDeadlineMs must be below ackDeadlineMs \(2500\)/],
    [{ ackDeadlineMs: 1000, syncDeadlineMs: 1500 }, /syncDeadlineMs must be below/],
    [{ busySignalTimeoutMs: -1 }, /busySignalTimeoutMs must be a positive integer/],
  ])('refuses %o with a RangeError naming the option', (options, message) => {
    expect(() => resolveAnswerOptions(options, platform)).toThrow(RangeError);
    expect(() => resolveAnswerOptions(options, platform)).toThrow(message);
  });

  it.each([
    [{ busyText: ' ' }, /busyText must be a non-empty string/],
    [{ unavailableText: '' }, /unavailableText must be a non-empty string/],
    [{ clock: 5 as unknown as () => number }, /clock must be a function/],
    [{ dispatchModes: { form: 'later' } as never }, /dispatchModes\.form/],
  ])('refuses %o with a TypeError naming the option', (options, message) => {
    expect(() => resolveAnswerOptions(options, platform)).toThrow(TypeError);
    expect(() => resolveAnswerOptions(options, platform)).toThrow(message);
  });
});

describe('resolveShapeModes', () => {
  const shapes = platform.shapes;
  const defaults = platform.dispatchModes;

  it('merges valid modes over the defaults, the user winning', () => {
    expect(resolveShapeModes({ command: 'sync', suggest: 'deferred' }, shapes, defaults)).toEqual({
      command: 'sync',
      suggest: 'deferred',
    });
  });

  it('returns a frozen copy of the defaults when the option is left out', () => {
    const modes = resolveShapeModes(undefined, shapes, defaults);
    expect(modes).toEqual(defaults);
    expect(modes).not.toBe(defaults);
    expect(Object.isFrozen(modes)).toBe(true);
  });

  it('refuses an unknown shape with a TypeError naming it and the known ones', () => {
    expect(() => resolveShapeModes({ slash: 'sync' }, shapes, defaults)).toThrow(TypeError);
    expect(() => resolveShapeModes({ slash: 'sync' }, shapes, defaults)).toThrow(
      'dispatchModes names an unknown shape "slash" (expected one of command, form, suggest)',
    );
  });

  it('refuses a misspelt mode with a TypeError naming the shape and the mode', () => {
    expect(() => resolveShapeModes({ form: 'sycn' }, shapes, defaults)).toThrow(
      'dispatchModes.form must be "sync" or "deferred", got "sycn"',
    );
  });

  it.each([['sync'], [null], [['command']]])('refuses %o, which is not an object', (value) => {
    expect(() => resolveShapeModes(value, shapes, defaults)).toThrow(
      /dispatchModes must be an object/,
    );
  });
});
