/**
 * Runs Spin's random simulation of a model and returns the lines it printed. Fails loudly (never
 * skips) when `spin` is missing: the replay tests are only meaningful against fresh traces too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `models/` folder. */
export const MODELS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Options of one random simulation. */
export interface SimulateOptions {
  /** Model path relative to `models/`. */
  readonly model: string;
  /** Spin's random seed (`-n`): the same seed gives the same run. */
  readonly seed: number;
  /** Preprocessor defines, e.g. `{ N: 3, MAXT: 8 }`. */
  readonly defines?: Readonly<Record<string, number | string>>;
  /** Step limit (`-u`). Default 5000. */
  readonly maxSteps?: number;
}

let available: boolean | undefined;

/** True when `spin` can be run (checked once per process). */
export function spinAvailable(): boolean {
  if (available === undefined) {
    try {
      execFileSync('spin', ['-V'], { stdio: 'ignore' });
      available = true;
    } catch (error) {
      available = (error as NodeJS.ErrnoException).code !== 'ENOENT';
    }
  }
  return available;
}

/**
 * Simulates the model once and returns stdout's lines. Throws an Error naming the install command
 * when `spin` is missing, and Spin's own output when the simulation fails.
 */
export function simulate(options: SimulateOptions): string[] {
  if (!Number.isInteger(options.seed) || options.seed < 1) {
    throw new RangeError(`seed must be a positive integer, got ${String(options.seed)}`);
  }
  if (!spinAvailable()) {
    throw new Error('spin is not installed: apt-get install -y spin (the model traces need it)');
  }
  const defines = Object.entries(options.defines ?? {}).map(
    ([name, value]) => `-D${name}=${value}`,
  );
  const cwd = mkdtempSync(join(tmpdir(), 'rt-spin-'));
  try {
    const args = [
      `-n${options.seed}`,
      `-u${options.maxSteps ?? 5000}`,
      ...defines,
      join(MODELS_DIR, options.model),
    ];
    const run = () =>
      execFileSync('spin', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    let out: string;
    try {
      out = run();
    } catch (error) {
      // A simulation is deterministic for its seed: only a failure to start it is worth a retry.
      const { status, stdout } = error as { status?: number | null; stdout?: string };
      if (status === null || status === undefined) out = run();
      else if (typeof stdout === 'string' && status !== 0 && !/error/i.test(stdout)) out = stdout;
      else throw error;
    }
    return out.split('\n');
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/**
 * Parses lines of the form `<TAG> <op> key=value ...` (Spin indents printf output per process)
 * into `{ op, ...numbers }`. Lines without the tag are ignored.
 */
export function parseTagged(
  lines: readonly string[],
  tag: string,
): Record<string, number | string>[] {
  const records: Record<string, number | string>[] = [];
  for (const line of lines) {
    const words = line.trim().split(/\s+/);
    if (words[0] !== tag || words[1] === undefined) continue;
    const record: Record<string, number | string> = { op: words[1] };
    for (const word of words.slice(2)) {
      const [name, value] = word.split('=');
      if (name === undefined || value === undefined || !/^-?\d+$/.test(value)) {
        throw new Error(`unreadable trace word "${word}" in: ${line}`);
      }
      record[name] = Number(value);
    }
    records.push(record);
  }
  return records;
}
