import { parseArgs } from 'node:util';
import { DEFAULT_DEMO_CONFIG, type DemoConfig } from './demo-config.js';
import {
  type Bounds,
  CONFIG_BOUNDS,
  type DemoTimings,
  describeBounds,
  validateConfig,
  withinBounds,
} from './limits.js';

const d = DEFAULT_DEMO_CONFIG;
const b = CONFIG_BOUNDS;
const range = (bounds: Bounds, scale = 1) => `${bounds.min / scale}..${bounds.max / scale}`;

export const HELP_TEXT = `Usage: pnpm demo [-- flags]

--transport http (the default): ONE rt bot (one runtime, one memory State, the Slack adapter over
HTTP and the Discord adapter over HTTP interactions and the gateway, on 127.0.0.1) flooded at once
by a local Slack simulator (signed deliveries, a 3 s ack deadline, failed Events API deliveries
redelivered on Slack's schedule: at once, +1 min, +5 min, time-compressed; slash commands and
clicks never redelivered) and a Discord simulator (signed HTTP interactions: /ask, a button, an
autocomplete; mentions over the gateway the real discord.js Client connects to; nothing ever
redelivered).

--transport socket-mode: the Slack flood over Socket Mode instead (no Discord), with a deploy in
the middle: a second runtime connects, the first shuts down mid-flood, and the fake Slack
redelivers the events the first left unacknowledged to the live connection.

Ends with a PASS/FAIL summary covering every platform and transport of the run, read from the
simulators' own records.

Exit codes: 0 every invariant passed; 1 an invariant failed; 2 usage error; 3 stopped early
(Ctrl-C or the time cap): the run did not finish, so it proves nothing.

Flags (range in brackets):
  --transport T       http | socket-mode (the Slack transport; see above)       default http
  --events N          unique Events API events (app_mention) [${range(b.events)}]   default ${d.events}
  --commands N        /ask slash commands [${range(b.commands)}]                  default ${d.commands}
  --clicks N          approve button clicks [${range(b.clicks)}]                default ${d.clicks}
  --discord-messages N     Discord mentions over the gateway [${range(b.discordMessages)}]  default ${d.discordMessages}
  --discord-commands N     Discord /ask interactions [${range(b.discordCommands)}]          default ${d.discordCommands}
  --discord-clicks N       Discord approve button clicks [${range(b.discordClicks)}]      default ${d.discordClicks}
  --discord-suggestions N  Discord autocompletes of /ask [${range(b.discordSuggestions)}]      default ${d.discordSuggestions}
  --handler-ms N      mean handler time in ms, each 50%..150% [${range(b.handlerMs)}] default ${d.handlerMs}
  --max-detached N    the runtime's admission bound [${range(b.maxDetached)}]         default ${d.maxDetached}
  --duration S        seconds the flood lasts [${range(b.durationMs, 1000)}]             default ${d.durationMs / 1000}
  --rate R            Slack first deliveries per second (events, /ask and clicks together)
                      instead of --duration: duration = (events + commands + clicks) / R
  --time-scale K      divide Slack's retry delays by K [${range(b.timeScale)}]        default ${d.timeScale}
  --seed N            seed of the traffic plans [${range(b.seed)}]         default ${d.seed}
  --heap-budget-mb N  peak heap budget for the memory check [${range(b.heapBudgetMb)}] default ${d.heapBudgetMb}
  --help              show this text
`;

/** The Slack transport of a run: HTTP (with Discord beside it) or Socket Mode with a deploy. */
export type DemoTransport = 'http' | 'socket-mode';

const TRANSPORTS: readonly DemoTransport[] = ['http', 'socket-mode'];

/** The outcome of parsing argv: a config (with its timers), a request for help, or a usage error. */
export type ParsedFlags =
  | {
      readonly kind: 'run';
      readonly config: DemoConfig;
      readonly timings: DemoTimings;
      /** `--transport`: `socket-mode` is the Socket Mode run with a deploy mid-flood. */
      readonly transport: DemoTransport;
    }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/** Reads a numeric flag; an absent flag is `fallback`. Throws a one-line `RangeError`. */
function numberFlag(name: string, raw: string | undefined, fallback: number, bounds: Bounds) {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !withinBounds(value, bounds)) {
    throw new RangeError(`--${name} must be ${describeBounds(bounds)}, got "${raw}"`);
  }
  return value;
}

/** Seconds as a flag shows them: whole numbers bare, others to three decimals. */
const secondsText = (ms: number) => String(Number((ms / 1000).toFixed(3)));

/**
 * Parses demo flags with `node:util` `parseArgs`. Unknown flags, values outside `CONFIG_BOUNDS`
 * and configurations whose derived timers would not fit `setTimeout` are usage errors.
 */
export function parseFlags(argv: readonly string[]): ParsedFlags {
  try {
    const { values } = parseArgs({
      args: [...argv].filter((arg) => arg !== '--'),
      strict: true,
      allowPositionals: false,
      options: {
        events: { type: 'string' },
        commands: { type: 'string' },
        clicks: { type: 'string' },
        'discord-messages': { type: 'string' },
        'discord-commands': { type: 'string' },
        'discord-clicks': { type: 'string' },
        'discord-suggestions': { type: 'string' },
        'handler-ms': { type: 'string' },
        'max-detached': { type: 'string' },
        duration: { type: 'string' },
        rate: { type: 'string' },
        'time-scale': { type: 'string' },
        seed: { type: 'string' },
        'heap-budget-mb': { type: 'string' },
        transport: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help === true) return { kind: 'help' };
    const transport = (values.transport ?? 'http') as DemoTransport;
    if (!TRANSPORTS.includes(transport)) {
      throw new RangeError(`--transport must be http or socket-mode, got "${values.transport}"`);
    }
    if (values.duration !== undefined && values.rate !== undefined) {
      throw new RangeError('give either --duration or --rate, not both');
    }
    const events = numberFlag('events', values.events, d.events, b.events);
    const commands = numberFlag('commands', values.commands, d.commands, b.commands);
    const clicks = numberFlag('clicks', values.clicks, d.clicks, b.clicks);
    const durationSeconds: Bounds = {
      min: b.durationMs.min / 1000,
      max: b.durationMs.max / 1000,
      integer: false,
    };
    let durationMs = Math.round(
      numberFlag('duration', values.duration, d.durationMs / 1000, durationSeconds) * 1000,
    );
    if (values.rate !== undefined) {
      const rate = numberFlag('rate', values.rate, 0, {
        min: 0.000001,
        max: 1_000_000,
        integer: false,
      });
      durationMs = Math.round(((events + commands + clicks) / rate) * 1000);
      if (!withinBounds(durationMs, b.durationMs)) {
        throw new RangeError(
          `--rate ${values.rate} makes the flood last ${secondsText(durationMs)} s; it must last ` +
            `${secondsText(b.durationMs.min)} to ${secondsText(b.durationMs.max)} s`,
        );
      }
    }
    const config: DemoConfig = {
      events,
      commands,
      clicks,
      discordMessages: numberFlag(
        'discord-messages',
        values['discord-messages'],
        d.discordMessages,
        b.discordMessages,
      ),
      discordCommands: numberFlag(
        'discord-commands',
        values['discord-commands'],
        d.discordCommands,
        b.discordCommands,
      ),
      discordClicks: numberFlag(
        'discord-clicks',
        values['discord-clicks'],
        d.discordClicks,
        b.discordClicks,
      ),
      discordSuggestions: numberFlag(
        'discord-suggestions',
        values['discord-suggestions'],
        d.discordSuggestions,
        b.discordSuggestions,
      ),
      handlerMs: numberFlag('handler-ms', values['handler-ms'], d.handlerMs, b.handlerMs),
      maxDetached: numberFlag('max-detached', values['max-detached'], d.maxDetached, b.maxDetached),
      durationMs,
      timeScale: numberFlag('time-scale', values['time-scale'], d.timeScale, b.timeScale),
      seed: numberFlag('seed', values.seed, d.seed, b.seed),
      heapBudgetMb: numberFlag(
        'heap-budget-mb',
        values['heap-budget-mb'],
        d.heapBudgetMb,
        b.heapBudgetMb,
      ),
    };
    return {
      kind: 'run',
      config,
      timings: validateConfig(config),
      transport,
    };
  } catch (error) {
    return { kind: 'error', message: (error as Error).message.replace(/\s*\n\s*/g, ' ') };
  }
}
