/** `pnpm offline`: runs the assistant against the fakes and the mock model, and prints the run. */
import { runOffline } from './offline.js';

// A word every 150 ms: slow enough to see each reply written in several steps.
const transcript = await runOffline({ chunkDelayMs: 150 });
for (const message of transcript.slack) console.log(`slack   ${message.id}: ${message.text}`);
for (const message of transcript.discord) console.log(`discord ${message.id}: ${message.text}`);
console.log(`skipped by the Slack follow-up: ${JSON.stringify(transcript.skipped)}`);
for (const o of transcript.observations) {
  if (o.type === 'stream_finished') {
    console.log(
      `stream  ${o.adapter} ${o.path}: ${o.status}, ${o.chars} chars, ${o.writes} writes`,
    );
  }
}
