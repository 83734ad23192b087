/** Bytes as MiB with one decimal. */
export function mib(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}

/** Seconds with one decimal. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A bar of `width` cells filled to `value / max` (clamped; an overflow shows as `!`). */
export function bar(value: number, max: number, width = 30): string {
  const ratio = max > 0 ? value / max : 0;
  const filled = Math.min(width, Math.round(Math.min(1, ratio) * width));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]${ratio > 1 ? '!' : ''}`;
}

/** Right-aligns `value` in `width` columns. */
export function num(value: number, width = 4): string {
  return String(value).padStart(width);
}
