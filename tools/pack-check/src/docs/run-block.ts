/**
 * Runs one compiled `ts run` block the way its reader would: a child process configured only
 * through the documented environment variables, pointed at local fakes. It must listen on `PORT`,
 * answer a signed request with a 2xx, reach the fake platform API, and exit 0 within 2 s of
 * SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import {
  buildChatInputCommand,
  createDiscordSigner,
  DISCORD_TEST_IDS,
  type FakeDiscordRest,
  startFakeDiscordRest,
} from '@rt/testing/discord';
import {
  buildMessageEvent,
  createSlackSigner,
  type FakeSlackApi,
  SLACK_TEST_IDS,
  startFakeSlackApi,
} from '@rt/testing/slack';

/** Which platforms a block talks to, from the packages it imports. */
export interface Platforms {
  readonly slack: boolean;
  readonly discord: boolean;
}

/** The platforms `code` imports an adapter of. */
export function platformsOf(code: string): Platforms {
  return {
    slack: /from\s+['"]@rt\/adapter-slack['"]/.test(code),
    discord: /from\s+['"]@rt\/adapter-discord['"]/.test(code),
  };
}

/**
 * The slash command a Discord quick start is sent: the first `onCommand('name', ...)` of `code`,
 * so the signed interaction reaches one of its handlers (an unrouted command is answered in the
 * HTTP response itself and never calls the API), else `ping`.
 */
export function discordCommandOf(code: string): string {
  return /\bonCommand\(\s*['"]([^'"]+)['"]/.exec(code)?.[1] ?? 'ping';
}

/** The credentials the checker hands a run block (test values, never real ones). */
export const RUN_CREDENTIALS = Object.freeze({
  SLACK_SIGNING_SECRET: 'pack-check-signing-secret',
  SLACK_BOT_TOKEN: 'xoxb-pack-check',
  SLACK_APP_TOKEN: 'xapp-1-A0PACK-check',
  DISCORD_BOT_TOKEN: 'pack-check-discord-token',
});

/** Longest wait for the program to listen, and for the fake API call after the answer. */
const STARTUP_MS = 15_000;
const API_CALL_MS = 5_000;
/** The convention: exit 0 within 2 s of SIGTERM. */
const EXIT_AFTER_SIGTERM_MS = 2_000;

/** A free loopback port (bound and released). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Resolves when `port` accepts an HTTP request; rejects when `child` exits first or time runs out. */
async function waitUntilListening(child: ChildProcess, port: number): Promise<void> {
  const deadline = Date.now() + STARTUP_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) before listening on PORT`);
    }
    try {
      await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`did not listen on PORT ${port} within ${STARTUP_MS / 1000} s`);
}

/** POSTs to the first of `paths` that is not a 404; resolves the status. */
async function post(
  port: number,
  paths: readonly string[],
  body: string,
  headers: () => Record<string, string>,
): Promise<{ status: number; path: string }> {
  let last = { status: 0, path: paths[0] ?? '/' };
  for (const path of paths) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: headers(),
      body,
    });
    await response.arrayBuffer();
    last = { status: response.status, path };
    if (response.status !== 404) break;
  }
  return last;
}

/**
 * Ids for one run's signed request, unique across runs: a block on a persistent State (a shared
 * Redis) dedupes a delivery it saw in an earlier run, so a fixed id would be answered without a
 * handler (and without the API call) from the second run on.
 */
function uniqueIds(): { slackEventId: string; slackTs: string; discordId: string } {
  const now = Date.now();
  const micros = String(randomInt(1_000_000)).padStart(6, '0');
  return {
    slackEventId: `EvPACK${now.toString(36).toUpperCase()}${micros}`,
    slackTs: `${Math.floor(now / 1000)}.${micros}`,
    // A snowflake of now (ms since Discord's epoch, shifted), plus a random low part.
    discordId: String(((BigInt(now) - 1_420_070_400_000n) << 22n) + BigInt(randomInt(4_194_304))),
  };
}

async function exercisesSlack(port: number, fake: FakeSlackApi): Promise<void> {
  const ids = uniqueIds();
  const payload = buildMessageEvent({
    text: `<@${SLACK_TEST_IDS.botUserId}> ping`,
    eventId: ids.slackEventId,
    ts: ids.slackTs,
  });
  const before = fake.calls.length;
  const answer = await post(port, ['/slack/events', '/'], payload.body, () => ({
    'content-type': payload.contentType,
    ...createSlackSigner(RUN_CREDENTIALS.SLACK_SIGNING_SECRET).sign(payload.body),
  }));
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`answered a signed Slack event on ${answer.path} with ${answer.status}`);
  }
  await waitForCall(() => fake.calls.length > before, 'the fake Slack Web API');
}

async function exercisesDiscord(
  port: number,
  fake: FakeDiscordRest,
  signer: ReturnType<typeof createDiscordSigner>,
  command: string,
): Promise<void> {
  const interaction = buildChatInputCommand({ name: command, id: uniqueIds().discordId });
  fake.knowInteraction(interaction as { token: string; channel_id?: unknown });
  const body = JSON.stringify(interaction);
  const before = fake.calls.length;
  const answer = await post(port, ['/interactions', '/'], body, () => ({
    'content-type': 'application/json',
    ...signer.sign(body),
  }));
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(
      `answered a signed Discord /${command} on ${answer.path} with ${answer.status}`,
    );
  }
  await waitForCall(() => fake.calls.length > before, 'the fake Discord REST API');
}

/** Polls until `called()`, the program's call to the fake after the signed request. */
async function waitForCall(called: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + API_CALL_MS;
  while (!called()) {
    if (Date.now() > deadline)
      throw new Error(`never called ${what} within ${API_CALL_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves the exit code once `child` exits, or `undefined` after `ms`. */
function exitWithin(child: ChildProcess, ms: number): Promise<number | string | undefined> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve(child.exitCode ?? child.signalCode ?? undefined);
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal ?? undefined);
    });
  });
}

/**
 * Runs `script` (compiled JavaScript in `cwd`) as a quick start; a Discord one is sent the slash
 * command `discordCommand` (see `discordCommandOf`). Resolves when it behaved; rejects with what
 * went wrong and the tail of its output.
 */
export async function runQuickStart(
  cwd: string,
  script: string,
  platforms: Platforms,
  discordCommand = 'ping',
): Promise<void> {
  const slack = platforms.slack ? await startFakeSlackApi() : undefined;
  const discord = platforms.discord
    ? await startFakeDiscordRest({ tokens: [RUN_CREDENTIALS.DISCORD_BOT_TOKEN] })
    : undefined;
  const signer = createDiscordSigner();
  const port = await freePort();
  const output: string[] = [];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    ...RUN_CREDENTIALS,
    SLACK_API_URL: slack?.url ?? 'http://127.0.0.1:9/api/',
    DISCORD_PUBLIC_KEY: signer.publicKey,
    DISCORD_APPLICATION_ID: DISCORD_TEST_IDS.applicationId,
    DISCORD_API_URL: discord?.url ?? 'http://127.0.0.1:9/api',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
  const child = spawn(process.execPath, [script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  try {
    await waitUntilListening(child, port);
    if (slack !== undefined) await exercisesSlack(port, slack);
    if (discord !== undefined) await exercisesDiscord(port, discord, signer, discordCommand);
    if (slack === undefined && discord === undefined) {
      throw new Error('imports neither @rt/adapter-slack nor @rt/adapter-discord: nothing to send');
    }
    child.kill('SIGTERM');
    const code = await exitWithin(child, EXIT_AFTER_SIGTERM_MS);
    if (code === undefined) throw new Error('still running 2 s after SIGTERM');
    if (code !== 0) throw new Error(`exited with ${code} after SIGTERM, not 0`);
  } catch (error) {
    const tail = output.join('').split('\n').slice(-15).join('\n').trim();
    throw new Error(
      `${(error as Error).message}${tail ? `\n--- its output (last lines)\n${tail}` : ''}`,
    );
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await slack?.close();
    await discord?.close();
  }
}
