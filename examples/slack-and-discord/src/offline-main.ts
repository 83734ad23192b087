/** `pnpm offline`: runs the bot against the fakes and prints what it sent to each platform. */
import { runOffline } from './offline.js';

const transcript = await runOffline();
for (const call of transcript.slack) {
  console.log(`slack   ${call.method}`, JSON.stringify(call.args.text ?? call.args));
}
for (const call of transcript.discord) {
  const body = call.body as { content?: unknown; type?: unknown } | undefined;
  console.log(`discord ${call.route}`, JSON.stringify(body?.content ?? body ?? null));
}
