/**
 * `pnpm offline`: the whole story without Slack. Starts the fake Slack (`@rt/testing/slack`, with
 * its OAuth consent page) and the app, installs it into two workspaces through the real install
 * flow, sends a mention from each (each answered with its own workspace's token), uninstalls one
 * and shows that its next event is answered as an unknown installation. With `--keep` the servers
 * stay up so the flow can be clicked through in a browser.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Observation } from '@rt/core';
import {
  buildAppMentionEvent,
  buildEventCallback,
  createSlackSigner,
  startFakeSlackApi,
} from '@rt/testing/slack';
import { createApp } from './app.js';
import { linkIn, TinyBrowser } from './browser.js';

const CLIENT_ID = '1000.2000';
const CLIENT_SECRET = 'offline-client-secret';
const SIGNING_SECRET = 'offline-signing-secret';
const STATE_SECRET = 'offline-state-secret-0123456789abcdef';

/** What the walk-through saw. */
export interface OfflineResult {
  /** Token that answered each workspace's mention. */
  readonly repliedWith: Readonly<Record<string, string | undefined>>;
  /** Token the fake issued to each workspace. */
  readonly issued: Readonly<Record<string, string | undefined>>;
  /** Installations left in the store after T1 uninstalled. */
  readonly stillInstalled: readonly string[];
  /** Notices of the event T1 sent after uninstalling. */
  readonly afterUninstall: readonly string[];
}

export async function runOffline(
  options: { keep?: boolean; print?: (line: string) => void } = {},
): Promise<OfflineResult> {
  const print = options.print ?? (() => undefined);
  const fake = await startFakeSlackApi({
    oauth: {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      workspaces: [
        { teamId: 'T1', teamName: 'Acme' },
        { teamId: 'T2', teamName: 'Globex' },
      ],
    },
  });
  const notices: Observation[] = [];
  const server = createServer((req, res) => app.listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app = createApp({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    signingSecret: SIGNING_SECRET,
    stateSecret: STATE_SECRET,
    publicUrl: origin,
    apiUrl: fake.url,
    authorizationUrl: fake.oauth?.authorizeUrl as string,
    observers: [(o) => void (o.type === 'adapter_notice' && notices.push(o))],
  });
  const send = async (payload: ReturnType<typeof buildAppMentionEvent>) => {
    const response = await fetch(
      createSlackSigner(SIGNING_SECRET).request(payload, { url: `${origin}/slack/events` }),
    );
    await response.arrayBuffer();
    return response.status;
  };
  try {
    for (const team of ['T1', 'T2']) {
      const browser = new TinyBrowser();
      const page = await browser.get(`${origin}/slack/install`);
      const consent = await browser.get(linkIn(page.body, 'add-to-slack'));
      const done = await browser.get(linkIn(consent.body, `allow-${team}`));
      print(`install ${team}: ${done.status} ${/<p>([^<]*)/.exec(done.body)?.[1] ?? ''}`);
    }
    for (const team of ['T1', 'T2']) {
      print(
        `mention from ${team}: ${await send(buildAppMentionEvent({ teamId: team, text: '<@UBOT> hi' }))}`,
      );
    }
    const posts = await fake.waitForCalls('chat.postMessage', 2);
    const repliedWith = Object.fromEntries(
      posts.map((call) => [
        (fake.oauth?.issued.find((t) => t.token === call.token)?.installation ?? '?').slice(2),
        call.token,
      ]),
    );
    print(
      `uninstall T1: ${await send(buildEventCallback({ type: 'app_uninstalled' }, { teamId: 'T1' }))}`,
    );
    const before = notices.length;
    print(`mention from T1 after uninstall: ${await send(buildAppMentionEvent({ teamId: 'T1' }))}`);
    const afterUninstall = notices.slice(before).map((o) => (o as { name: string }).name);
    print(`  notices: ${afterUninstall.join(', ')}`);
    const stillInstalled: string[] = [];
    for (const teamId of ['T1', 'T2']) {
      if (await app.store.fetch({ teamId, isEnterpriseInstall: false }))
        stillInstalled.push(teamId);
    }
    print(`still installed: ${stillInstalled.join(', ')}`);
    if (options.keep === true) {
      print(`open ${origin}/slack/install in a browser (Ctrl-C to stop)`);
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
    }
    return {
      repliedWith,
      issued: { T1: fake.oauth?.botTokenOf('T:T1'), T2: fake.oauth?.botTokenOf('T:T2') },
      stillInstalled,
      afterUninstall,
    };
  } finally {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await fake.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runOffline({ keep: process.argv.includes('--keep'), print: (line) => console.log(line) });
}
