/**
 * What one benchmark reports: a table of figures, the targets it checks and how it was run.
 */

/** One target: what is required, the figure measured, and whether it was met. */
export interface TargetCheck {
  /** What is required, e.g. `ack >= 0.7x baseline (native path)`. */
  readonly target: string;
  /** The measured figure, e.g. `0.82x`. */
  readonly figure: string;
  readonly met: boolean;
}

/** A benchmark's output: one or more tables, target checks, and notes on method. */
export interface BenchSection {
  /** The benchmark's name, as `pnpm bench <name>` takes it. */
  readonly name: string;
  readonly title: string;
  /** How it was run (sizes, runs, connections), one sentence each. */
  readonly method: readonly string[];
  readonly tables: readonly BenchTable[];
  readonly targets: readonly TargetCheck[];
}

/** A table: a header and rows of already formatted cells. */
export interface BenchTable {
  readonly caption?: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** Options every benchmark takes. */
export interface BenchRunOptions {
  /** Tiny sizes and one run: proves the benchmark still works, measures nothing. */
  readonly smoke: boolean;
  /** Runs per figure (the median is reported). */
  readonly runs: number;
  /** Progress lines (to stderr). */
  log(line: string): void;
}

/** Renders a table as GitHub markdown. */
export function markdownTable(table: BenchTable): string {
  const escapeCell = (cell: string) => cell.replaceAll('|', '\\|');
  const lines = [
    `| ${table.header.map(escapeCell).join(' | ')} |`,
    `| ${table.header.map(() => '---').join(' | ')} |`,
    ...table.rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
  ];
  return table.caption === undefined ? lines.join('\n') : `${table.caption}\n\n${lines.join('\n')}`;
}

/** Renders a table as padded plain text for the terminal. */
export function plainTable(table: BenchTable): string {
  const widths = table.header.map((title, column) =>
    Math.max(title.length, ...table.rows.map((row) => (row[column] ?? '').length)),
  );
  const render = (cells: readonly string[]) =>
    cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  const lines = [render(table.header), render(widths.map((w) => '-'.repeat(w)))];
  for (const row of table.rows) lines.push(render(row));
  return table.caption === undefined ? lines.join('\n') : `${table.caption}\n${lines.join('\n')}`;
}

/** Renders a section's target checks as markdown bullet lines. */
export function targetLines(targets: readonly TargetCheck[]): string[] {
  return targets.map((t) => `- ${t.met ? 'met' : '**missed**'}: ${t.target}: ${t.figure}`);
}
