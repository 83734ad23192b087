/** Everything one demo run is configured by. Units are in the names. */
export interface DemoConfig {
  /** Unique Events API events (`app_mention`) the simulator sends. */
  readonly events: number;
  /** Slash commands the simulator sends (never redelivered). */
  readonly commands: number;
  /** Button clicks the simulator sends (never redelivered). */
  readonly clicks: number;
  /** Discord mentions the Discord simulator sends over the gateway (never redelivered). */
  readonly discordMessages: number;
  /** Discord `/ask` commands sent as signed HTTP interactions (never redelivered). */
  readonly discordCommands: number;
  /** Discord `approve` button clicks sent as signed HTTP interactions (never redelivered). */
  readonly discordClicks: number;
  /** Discord autocompletes of `/ask`'s `question` option, as signed HTTP interactions. */
  readonly discordSuggestions: number;
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
  discordMessages: 90,
  discordCommands: 20,
  discordClicks: 20,
  discordSuggestions: 20,
  handlerMs: 2000,
  maxDetached: 50,
  durationMs: 54_000,
  timeScale: 60,
  seed: 7,
  heapBudgetMb: 256,
});
