/**
 * Offline playground: a fake Slack (Web API and Socket Mode, from `@rt/testing/slack`) on
 * 127.0.0.1. It prints the two URLs to give the bot, then greets every connection the bot opens
 * with an `@mention` and a `/rt-ping`, and prints what the bot answered: the acks (with their
 * payloads) and its Web API calls. Ctrl-C stops it.
 */
import {
  buildAppMentionEvent,
  buildSlashCommand,
  startFakeSlackApi,
  startFakeSocketMode,
} from '@rt/testing/slack';

const web = await startFakeSlackApi();
const socket = await startFakeSocketMode();
console.log('fake Slack is up. Start the bot in another terminal with:');
console.log(
  `  SLACK_APP_TOKEN=xapp-offline SLACK_BOT_TOKEN=xoxb-offline SLACK_API_URL=${web.url} SLACK_SOCKET_API_URL=${socket.apiUrl} pnpm --filter @rt/example-slack-socket-mode start`,
);

let closing = false;
let posts = 0;
async function greet(count: number): Promise<void> {
  const connection = await socket.waitForConnection(count, 24 * 60 * 60 * 1000);
  console.log(`connection ${connection.id} opened`);
  const mention = socket.send(buildAppMentionEvent({ text: '<@U0BOT> hello' }), { to: connection });
  const ping = socket.send(buildSlashCommand({ command: '/rt-ping' }), { to: connection });
  for (const [what, envelope] of [
    ['mention', mention],
    ['/rt-ping', ping],
  ] as const) {
    const ack = await socket.waitForAck(envelope.envelope_id);
    console.log(`${what} acked with ${JSON.stringify(ack.payload)}`);
  }
  posts += 1;
  const [post] = (await web.waitForCalls('chat.postMessage', posts)).slice(-1);
  console.log(
    `the bot posted ${JSON.stringify(post?.args.text)} in thread ${String(post?.args.thread_ts)}`,
  );
  connection.closed.then((how) => {
    if (!closing) console.log(`connection ${connection.id} closed by the ${how.by}`);
  });
}

process.once('SIGINT', () => {
  closing = true;
  void Promise.all([socket.close(), web.close()]).then(() => process.exit(0));
});

for (let count = 1; !closing; count += 1) {
  await greet(count).catch((error: unknown) => {
    if (!closing) console.error(error instanceof Error ? error.message : error);
  });
}
