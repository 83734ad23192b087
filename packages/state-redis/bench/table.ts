/**
 * Plain-text tables for the benchmark output.
 */

/** Renders `rows` under `header`, each column padded to its widest cell. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const render = (cells: readonly string[]) =>
    cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  return [
    render(header),
    render(widths.map((width) => '-'.repeat(width))),
    ...rows.map(render),
  ].join('\n');
}

/** An integer with thousands separators. */
export function count(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** The value at quantile `q` of ascending `sorted`, in ms with three decimals. */
export function quantileMs(sorted: readonly number[], q: number): string {
  if (sorted.length === 0) return '';
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(3);
}
