import { describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_CONFIG } from './demo-config.js';
import { parseFlags } from './flags.js';
import { assertTimersFit, deriveTimings, MAX_TIMER_MS, validateConfig } from './limits.js';

function errorOf(argv: string[]): string {
  const parsed = parseFlags(argv);
  if (parsed.kind !== 'error') throw new Error(`expected a usage error for ${argv.join(' ')}`);
  return parsed.message;
}

function configOf(argv: string[]) {
  const parsed = parseFlags(argv);
  if (parsed.kind !== 'run') throw new Error(`expected a run for ${argv.join(' ')}`);
  return parsed;
}

describe('parseFlags', () => {
  it('gives the defaults, and timers that fit setTimeout, without flags', () => {
    const { config, timings } = configOf([]);
    expect(config).toEqual(DEFAULT_DEMO_CONFIG);
    expect(timings.capMs).toBeLessThan(MAX_TIMER_MS);
    expect(timings.detachTimeoutMs).toBe(30_000);
    expect(timings.retryDelaysMs).toEqual([0, 1000, 5000]);
  });

  it('accepts a pnpm-style "--" separator and every flag at its bounds', () => {
    const { config } = configOf([
      '--',
      '--events=100000',
      '--commands=0',
      '--clicks=0',
      '--handler-ms=60000',
      '--max-detached=10000',
      '--duration=3600',
      '--time-scale=1',
      '--seed=4294967295',
      '--heap-budget-mb=1',
      '--discord-messages=0',
      '--discord-commands=100000',
      '--discord-clicks=0',
      '--discord-suggestions=100000',
    ]);
    expect(config.durationMs).toBe(3_600_000);
    expect(config.handlerMs).toBe(60_000);
  });

  it.each([
    [['--handler-ms', '300000000'], '--handler-ms must be an integer from 1 to 60000'],
    [['--handler-ms', '1.5'], '--handler-ms must be an integer from 1 to 60000'],
    [['--events', '0'], '--events must be an integer from 1 to 100000'],
    [['--events', ''], '--events must be an integer'],
    [['--events', '1e9'], '--events must be an integer from 1 to 100000'],
    [['--commands=-1'], '--commands must be an integer from 0 to 100000'],
    [['--max-detached', '0'], '--max-detached must be an integer from 1 to 10000'],
    [['--duration', '0.0001'], '--duration must be a number from 0.1 to 3600'],
    [['--duration', '1e12'], '--duration must be a number from 0.1 to 3600'],
    [['--duration', 'NaN'], '--duration must be a number from 0.1 to 3600'],
    [['--time-scale', '0.0001'], '--time-scale must be a number from 1 to 100000'],
    [['--time-scale', 'Infinity'], '--time-scale must be a number from 1 to 100000'],
    [['--seed=-1'], '--seed must be an integer from 0 to 4294967295'],
    [['--seed', '-1'], "Option '--seed' argument is ambiguous. Did you forget"],
    [['--heap-budget-mb', '0'], '--heap-budget-mb must be a number from 1 to 1048576'],
    [['--rate', '0'], '--rate must be a number from 0.000001 to 1000000'],
    [
      ['--rate', '0.0001'],
      '--rate 0.0001 makes the flood last 4800000 s; it must last 0.1 to 3600 s',
    ],
    [
      ['--rate', '100000'],
      '--rate 100000 makes the flood last 0.005 s; it must last 0.1 to 3600 s',
    ],
    [['--rate', '10', '--duration', '5'], 'give either --duration or --rate, not both'],
    [['--nope'], "Unknown option '--nope'"],
    [['--transport', 'websocket'], '--transport must be http or socket-mode, got "websocket"'],
    [['--socket-mode'], "Unknown option '--socket-mode'"],
    [['--discord-clicks', '-1'], "Option '--discord-clicks' argument is ambiguous"],
    [['--discord-suggestions=1.5'], '--discord-suggestions must be an integer from 0 to 100000'],
    [['stray'], 'positional'],
  ])('refuses %j with a one-line message', (argv, message) => {
    const text = errorOf(argv);
    expect(text).toContain(message);
    expect(text).not.toContain('\n');
  });

  it('counts every first delivery in --rate: events, /ask and clicks together', () => {
    const { config } = configOf([
      '--events',
      '100',
      '--commands',
      '10',
      '--clicks',
      '10',
      '--rate',
      '20',
    ]);
    expect(config.durationMs).toBe(6000);
  });

  it('runs the HTTP transport with Discord beside it by default, Socket Mode on request', () => {
    expect(configOf([]).transport).toBe('http');
    expect(configOf(['--transport', 'socket-mode']).transport).toBe('socket-mode');
    expect(configOf(['--transport=http']).transport).toBe('http');
  });

  it('rounds --duration to whole milliseconds', () => {
    expect(configOf(['--duration', '0.1234']).config.durationMs).toBe(123);
  });

  it('answers --help before looking at other values', () => {
    expect(parseFlags(['--events', '0', '--help'])).toEqual({ kind: 'help' });
  });
});

describe('validateConfig', () => {
  it('refuses a configuration no flag could produce, naming the value', () => {
    expect(() => validateConfig({ ...DEFAULT_DEMO_CONFIG, timeScale: 0.0001 })).toThrow(
      /timeScale must be a number from 1 to 100000/,
    );
    expect(() => validateConfig({ ...DEFAULT_DEMO_CONFIG, durationMs: 0 })).toThrow(RangeError);
  });

  it('refuses derived timers that setTimeout would fire after 1 ms', () => {
    // Without the bounds, this scale makes the time cap and the +5 min retry overflow.
    const timings = deriveTimings({ ...DEFAULT_DEMO_CONFIG, timeScale: 0.0001 });
    expect(timings.capMs).toBeGreaterThan(MAX_TIMER_MS);
    expect(() => assertTimersFit(timings)).toThrow(/time cap would be .* ms, above the/);
    const detach = deriveTimings({ ...DEFAULT_DEMO_CONFIG, handlerMs: 300_000_000 });
    expect(() => assertTimersFit({ ...detach, capMs: 1 })).toThrow(/detachTimeoutMs/);
    expect(() =>
      assertTimersFit({ ...deriveTimings(DEFAULT_DEMO_CONFIG), retryDelaysMs: [0, 1, 3e9] }),
    ).toThrow(/retry #3 delay/);
  });
});
