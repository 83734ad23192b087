import type { Snapshot } from '../metrics.js';
import { frameLines } from './frame-lines.js';
import type { Output, Renderer, ViewTotals } from './renderer.js';

const ESC = '\u001b[';

/**
 * Redraws the view in place with ANSI escapes: moves the cursor up over the previous frame,
 * rewrites each line and clears what is left of it. Hides the cursor while running.
 */
export class LiveRenderer implements Renderer {
  readonly #out: Output;
  readonly #totals: ViewTotals;
  #drawn = 0;

  constructor(out: Output, totals: ViewTotals) {
    this.#out = out;
    this.#totals = totals;
  }

  frame(snapshot: Snapshot): void {
    const lines = frameLines(snapshot, this.#totals);
    let text = this.#drawn === 0 ? `${ESC}?25l` : `${ESC}${this.#drawn}F`;
    for (const line of lines) text += `${line}${ESC}K\n`;
    this.#out.write(text);
    this.#drawn = lines.length;
  }

  stop(snapshot: Snapshot): void {
    this.frame(snapshot);
    this.#out.write(`${ESC}?25h`);
  }
}
