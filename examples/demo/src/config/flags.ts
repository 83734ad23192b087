import { parseArgs } from 'node:util';

/** Everything one demo run is configured by. Units are in the names. */
export interface DemoConfig {
  /** Unique Events API events (`app_mention`) the simulator sends. */
  readonly events: number;
  /** Slash commands the simulator sends (never redelivered). */
  readonly commands: number;
  /** Button clicks the simulator sends (never redelivered). */
  readonly clicks: number;
  /** Mean handler time (an LLM-like call); each call takes 50%..150% of it. */
  readonly handlerMs: number;
  /** The runtime's admission bound. */
  readonly maxDetached: number;
  /** How long the flood lasts (the redelivery tail and the drain come after it). */
  readonly durationMs: number;
  /** Slack's retry delays are divided by this (60: one minute of Slack time is one second). */
  readonly timeScale: number;
  /** Seed of the traffic plan (burst sizes, timings, handler times). */
  readonly seed: number;
  /** Budget for the peak heap in use; the memory invariant fails above it. */
  readonly heapBudgetMb: number;
}

/** The default run: about a minute, several times more events than the bound. */
export const DEFAULT_DEMO_CONFIG: Readonly<DemoConfig> = Object.freeze({
  events: 400,
  commands: 40,
  clicks: 40,
  handlerMs: 2000,
  maxDetached: 50,
  durationMs: 54_000,
  timeScale: 60,
  seed: 7,
  heapBudgetMb: 256,
});

export const HELP_TEXT = `Usage: pnpm demo [-- flags]

A real rt Slack bot (runtime, memory State, Slack adapter over HTTP on 127.0.0.1) flooded by a
local Slack simulator that signs deliveries, waits 3 s for each ack, redelivers failed Events API
deliveries on Slack's schedule (at once, +1 min, +5 min, time-compressed) and never redelivers
slash commands or clicks. Ends with a PASS/FAIL summary; exits 1 if any invariant failed.

Flags:
  --events N          unique Events API events (app_mention)           default ${DEFAULT_DEMO_CONFIG.events}
  --commands N        slash commands                                   default ${DEFAULT_DEMO_CONFIG.commands}
  --clicks N          button clicks                                    default ${DEFAULT_DEMO_CONFIG.clicks}
  --handler-ms N      mean handler time in ms (each 50%..150% of it)   default ${DEFAULT_DEMO_CONFIG.handlerMs}
  --max-detached N    the runtime's admission bound (maxDetached)      default ${DEFAULT_DEMO_CONFIG.maxDetached}
  --duration S        seconds the flood lasts                          default ${DEFAULT_DEMO_CONFIG.durationMs / 1000}
  --rate R            events per second instead of --duration (duration = events / rate)
  --time-scale K      divide Slack's retry delays by K (60: 1 min -> 1 s) default ${DEFAULT_DEMO_CONFIG.timeScale}
  --seed N            seed of the traffic plan                         default ${DEFAULT_DEMO_CONFIG.seed}
  --heap-budget-mb N  peak heap budget for the memory check            default ${DEFAULT_DEMO_CONFIG.heapBudgetMb}
  --help              show this text
`;

/** The outcome of parsing argv: a config, a request for help, or a usage error. */
export type ParsedFlags =
  | { readonly kind: 'run'; readonly config: DemoConfig }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

function numberFlag(
  name: string,
  raw: string | undefined,
  fallback: number,
  check: (value: number) => boolean,
  expected: string,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || !check(value)) {
    throw new RangeError(`--${name} must be ${expected}, got "${raw}"`);
  }
  return value;
}

const integerAtLeast = (min: number) => (value: number) => Number.isInteger(value) && value >= min;
const positive = (value: number) => value > 0;

/** Parses demo flags with `node:util` `parseArgs`. Unknown flags are a usage error. */
export function parseFlags(argv: readonly string[]): ParsedFlags {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv].filter((arg) => arg !== '--'),
      strict: true,
      allowPositionals: false,
      options: {
        events: { type: 'string' },
        commands: { type: 'string' },
        clicks: { type: 'string' },
        'handler-ms': { type: 'string' },
        'max-detached': { type: 'string' },
        duration: { type: 'string' },
        rate: { type: 'string' },
        'time-scale': { type: 'string' },
        seed: { type: 'string' },
        'heap-budget-mb': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  if (values.help === true) return { kind: 'help' };
  const text = (name: string) => values[name] as string | undefined;
  const d = DEFAULT_DEMO_CONFIG;
  try {
    if (text('duration') !== undefined && text('rate') !== undefined) {
      throw new RangeError('give either --duration or --rate, not both');
    }
    const events = numberFlag(
      'events',
      text('events'),
      d.events,
      integerAtLeast(1),
      'an integer >= 1',
    );
    const rate = numberFlag('rate', text('rate'), 0, positive, 'a number > 0');
    const durationS = numberFlag(
      'duration',
      text('duration'),
      d.durationMs / 1000,
      positive,
      'a number of seconds > 0',
    );
    const config: DemoConfig = {
      events,
      commands: numberFlag(
        'commands',
        text('commands'),
        d.commands,
        integerAtLeast(0),
        'an integer >= 0',
      ),
      clicks: numberFlag('clicks', text('clicks'), d.clicks, integerAtLeast(0), 'an integer >= 0'),
      handlerMs: numberFlag(
        'handler-ms',
        text('handler-ms'),
        d.handlerMs,
        integerAtLeast(1),
        'an integer >= 1',
      ),
      maxDetached: numberFlag(
        'max-detached',
        text('max-detached'),
        d.maxDetached,
        integerAtLeast(1),
        'an integer >= 1',
      ),
      durationMs: Math.round((rate > 0 ? events / rate : durationS) * 1000),
      timeScale: numberFlag(
        'time-scale',
        text('time-scale'),
        d.timeScale,
        positive,
        'a number > 0',
      ),
      seed: numberFlag('seed', text('seed'), d.seed, integerAtLeast(0), 'an integer >= 0'),
      heapBudgetMb: numberFlag(
        'heap-budget-mb',
        text('heap-budget-mb'),
        d.heapBudgetMb,
        positive,
        'a number > 0',
      ),
    };
    return { kind: 'run', config };
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
}
