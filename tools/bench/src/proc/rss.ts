/**
 * A process's resident set size and CPU time read from the OS (`/proc/<pid>/...`), not from
 * inside it, so nothing the process does (or fails to do) colours the figure.
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

/** CPU time (user + system) `pid` has used so far, in microseconds; NaN where `/proc` is unavailable. */
export function cpuMicrosOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14, 15)
    return (ticks * 1e6) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** `sysconf(_SC_CLK_TCK)`: 100 on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;
