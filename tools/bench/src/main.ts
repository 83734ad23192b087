/**
 * `pnpm bench [name...] [--smoke] [--runs N] [--json FILE] [--no-doc]`: runs the named benchmarks
 * (default: all, in order ack, flood, socket, redis, strategies, subscriptions, marks, rejection,
 * stream), prints their tables and
 * targets, and writes `docs/benchmarks.md` (not with `--smoke` or `--no-doc`). `--json FILE`
 * also writes the sections as JSON (the smoke test reads it).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ackBench } from './ack/ack-bench.js';
import { subscriptionsBench } from './conversation/subscriptions-bench.js';
import { floodBench } from './flood/flood-bench.js';
import { marksBench } from './marks/marks-bench.js';
import { MEASURES_SOURCES } from './proc/child.js';
import { redisBench } from './redis/redis-bench.js';
import { rejectionBench } from './rejection/rejection-bench.js';
import { writeDoc } from './report/doc.js';
import { describeMachine } from './report/machine.js';
import {
  type BenchRunOptions,
  type BenchSection,
  plainTable,
  targetLines,
} from './report/section.js';
import { socketBench } from './socket/socket-bench.js';
import { strategiesBench } from './strategies/strategies-bench.js';
import { streamBench } from './stream/stream-bench.js';

const BENCHES: Record<string, (options: BenchRunOptions) => Promise<BenchSection>> = {
  ack: ackBench,
  flood: floodBench,
  socket: socketBench,
  redis: redisBench,
  strategies: strategiesBench,
  subscriptions: subscriptionsBench,
  marks: marksBench,
  rejection: rejectionBench,
  stream: streamBench,
};

function parseArgs(argv: readonly string[]) {
  const names: string[] = [];
  let smoke = false;
  let runs: number | undefined;
  let json: string | undefined;
  let doc = true;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') continue;
    if (arg === '--smoke') smoke = true;
    else if (arg === '--no-doc') doc = false;
    else if (arg === '--runs') runs = Number(argv[++i]);
    else if (arg === '--json') json = argv[++i];
    else if (arg in BENCHES) names.push(arg);
    else
      throw new TypeError(
        `unknown benchmark or option "${arg}" (benchmarks: ${Object.keys(BENCHES).join(', ')})`,
      );
  }
  if (runs !== undefined && (!Number.isInteger(runs) || runs < 1)) {
    throw new RangeError('--runs must be a positive integer');
  }
  return {
    names: names.length > 0 ? names : Object.keys(BENCHES),
    smoke,
    runs,
    json,
    doc: doc && !smoke,
  };
}

const args = parseArgs(process.argv.slice(2));
const options: BenchRunOptions = {
  smoke: args.smoke,
  runs: args.runs ?? (args.smoke ? 1 : 3),
  log: (line) => process.stderr.write(`${line}\n`),
};
const machine = `${describeMachine()}; rt ${MEASURES_SOURCES ? 'from its TypeScript sources through tsx' : 'from its tsc build (dist/)'}`;
const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const sections: BenchSection[] = [];
for (const name of args.names) {
  const section = await BENCHES[name]!(options);
  sections.push(section);
  console.log(`\n== ${section.name}: ${section.title}`);
  for (const table of section.tables) console.log(`${plainTable(table)}\n`);
  for (const line of targetLines(section.targets)) console.log(line.replaceAll('**', ''));
}
const missed = sections.flatMap((section) =>
  section.targets
    .filter((target) => !target.met)
    .map((target) => `${section.name}: ${target.target}`),
);
const total = sections.reduce((sum, section) => sum + section.targets.length, 0);
console.log(`\n== every target: ${total - missed.length} met, ${missed.length} missed`);
for (const line of missed) console.log(`missed: ${line}`);
console.log(
  `\n${machine}, ${date}${args.smoke ? ' (smoke: sizes too small to mean anything)' : ''}`,
);
if (args.json !== undefined)
  writeFileSync(args.json, JSON.stringify({ machine, date, sections }, null, 2));
if (args.doc) {
  const path = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));
  writeDoc(path, Object.keys(BENCHES), sections, machine, date);
  console.log(`wrote ${path}`);
}
