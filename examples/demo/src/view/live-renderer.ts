import type { Snapshot } from '../metrics.js';
import { frameLines } from './frame-lines.js';
import type { Output, Renderer, ViewTotals } from './renderer.js';

const ESC = '\u001b[';

/**
 * Cuts `line` to fit a terminal `columns` wide. It keeps one column free, so a line never fills
 * the last column and wraps (a wrapped line would make the cursor-up count wrong). The frame's
 * lines are plain ASCII, so one character is one column. Without a width, lines are kept.
 */
export function fitLine(line: string, columns: number | undefined): string {
  if (columns === undefined || !Number.isFinite(columns) || columns < 2) return line;
  return line.length < columns ? line : line.slice(0, columns - 1);
}

/**
 * Redraws the view in place with ANSI escapes: moves the cursor up over the previous frame,
 * rewrites each line (cut to the terminal's width, read from `columns` at every frame so a resize
 * is honoured) and clears what is left of it. Hides the cursor while running.
 */
export class LiveRenderer implements Renderer {
  readonly #out: Output;
  readonly #totals: ViewTotals;
  readonly #columns: () => number | undefined;
  #drawn = 0;

  constructor(
    out: Output,
    totals: ViewTotals,
    columns: () => number | undefined = () => undefined,
  ) {
    this.#out = out;
    this.#totals = totals;
    this.#columns = columns;
  }

  frame(snapshot: Snapshot): void {
    const columns = this.#columns();
    const lines = frameLines(snapshot, this.#totals).map((line) => fitLine(line, columns));
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
