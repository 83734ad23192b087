import type { Snapshot } from '../metrics.js';
import { progressLine } from './frame-lines.js';
import type { Output, Renderer, ViewTotals } from './renderer.js';

/** Without a TTY: one plain progress line every `everyMs` (and one at the end). */
export class PlainRenderer implements Renderer {
  readonly #out: Output;
  readonly #totals: ViewTotals;
  readonly #everyMs: number;
  #lastAt = Number.NEGATIVE_INFINITY;

  constructor(out: Output, totals: ViewTotals, everyMs = 1500) {
    this.#out = out;
    this.#totals = totals;
    this.#everyMs = everyMs;
  }

  frame(snapshot: Snapshot): void {
    if (snapshot.elapsedMs - this.#lastAt < this.#everyMs) return;
    this.#lastAt = snapshot.elapsedMs;
    this.#out.write(`${progressLine(snapshot, this.#totals)}\n`);
  }

  stop(snapshot: Snapshot): void {
    this.#out.write(`${progressLine(snapshot, this.#totals)}\n`);
  }
}
