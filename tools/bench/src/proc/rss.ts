/**
 * A process's resident set size read from the OS (`/proc/<pid>/status`), not from inside it, so
 * nothing the process does (or fails to do) colours the figure.
 */
import { readFileSync } from 'node:fs';

/** `VmRSS` of `pid` in bytes; NaN where `/proc` is unavailable. */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Samples `pid`'s RSS every `everyMs` until `stop()`, keeping the peak. */
export function sampleRss(
  pid: number,
  everyMs = 20,
): { stop(): { peak: number; samples: number } } {
  let peak = rssOf(pid);
  let samples = 1;
  const timer = setInterval(() => {
    const rss = rssOf(pid);
    samples += 1;
    if (rss > peak || Number.isNaN(peak)) peak = rss;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const rss = rssOf(pid);
      if (rss > peak) peak = rss;
      return { peak, samples: samples + 1 };
    },
  };
}
