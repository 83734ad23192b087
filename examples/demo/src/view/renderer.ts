import type { Snapshot } from '../metrics.js';

/** Where frames go: a live in-place view (TTY) or plain progress lines. */
export interface Renderer {
  /** Renders one snapshot. */
  frame(snapshot: Snapshot): void;
  /** Renders the last snapshot and leaves the terminal as it found it. */
  stop(snapshot: Snapshot): void;
}

/** Totals the frames show progress against. */
export interface ViewTotals {
  readonly events: number;
  readonly commands: number;
  readonly clicks: number;
  readonly discordMessages: number;
  readonly discordCommands: number;
  readonly discordClicks: number;
  readonly discordSuggestions: number;
}

/** Something to write text to (`process.stdout`, or a sink in tests). */
export interface Output {
  write(text: string): unknown;
}
