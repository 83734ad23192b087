import { DEFAULT_SLACK_ADAPTER_OPTIONS } from '@rt/adapter-slack';
import { createMemoryState } from '@rt/state-memory';
import {
  buildAppMentionEvent,
  buildBlockActions,
  buildSlashCommand,
  type FakeEnvelope,
  type FakeSocketConnection,
  type FakeSocketMode,
  startFakeSocketMode,
} from '@rt/testing/slack';
import type { DemoConfig } from '../config/demo-config.js';
import type { DemoTimings } from '../config/limits.js';
import type { DemoIo } from '../run-demo.js';
import { SimulatorLedger } from '../simulator/ledger.js';
import { DEMO_CHANNEL } from '../simulator/slack-simulator.js';
import { type PlannedItem, planTraffic } from '../simulator/traffic-plan.js';
import { SimulatedWebApi } from '../simulator/web-api.js';
import type { Invariant } from '../summary/invariants.js';
import { seconds } from '../view/format.js';
import { type SocketBot, startSocketBot } from './socket-bot.js';
import { checkSocketInvariants, type SocketRun } from './socket-checks.js';

/** The measured result of one Socket Mode run. */
export interface SocketDemoReport {
  readonly config: DemoConfig;
  readonly invariants: readonly Invariant[];
  readonly run: SocketRun;
  /** Why the run stopped before Slack had finished; absent when it ran to the end. */
  readonly stoppedEarly?: string;
}

const PROGRESS_EVERY_MS = 1500;

/** A unique top-level message ts per planned item (each mention starts its own thread). */
function messageTs(index: number): string {
  return `${1_800_000_000 + index}.${String(index % 1_000_000).padStart(6, '0')}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Like Slack spreading envelopes over an app's connections: round robin over the open ones. */
class Spreader {
  readonly #fake: FakeSocketMode;
  #next = 0;

  constructor(fake: FakeSocketMode) {
    this.#fake = fake;
  }

  send(payload: Parameters<FakeSocketMode['send']>[0]): FakeEnvelope | undefined {
    for (let tries = 0; tries < 3; tries += 1) {
      const open: FakeSocketConnection[] = this.#fake.openConnections();
      if (open.length === 0) return undefined;
      const to = open[this.#next % open.length]!;
      this.#next += 1;
      try {
        return this.#fake.send(payload, { to });
      } catch {
        // It closed between the check and the send: try the next one.
      }
    }
    return undefined;
  }
}

/**
 * The Socket Mode run: the same bot, handlers, bound and traffic plan as the HTTP run, but over
 * Socket Mode, with a deploy in the middle of the flood. Instance A takes the first half alone;
 * then instance B connects (the replacement starts first) and A shuts down while envelopes keep
 * arriving on both connections. Slack's side is the fake of `@rt/testing/slack`: it spreads
 * envelopes over the open connections and redelivers an unacknowledged event (a new envelope id,
 * the same `event_id`) after the time-compressed schedule, to another live connection when there
 * is one. Both instances share one State, as Redis would be shared across processes.
 */
export async function runSocketModeDemo(
  config: DemoConfig,
  io: DemoIo,
  timings: DemoTimings,
): Promise<SocketDemoReport> {
  const out = io.stdout;
  const { busyText, unavailableText } = DEFAULT_SLACK_ADAPTER_OPTIONS;
  const ledger = new SimulatorLedger();
  const webApi = await SimulatedWebApi.start(ledger, busyText);
  // Slack waits for the ack (one compressed minute here), then retries on its schedule.
  const ackWaitMs = 60_000 / config.timeScale;
  const [, plusOne = 1000, plusFive = 5000] = timings.retryDelaysMs;
  const fake = await startFakeSocketMode({ redeliverAfterMs: [ackWaitMs, plusOne, plusFive] });
  const state = createMemoryState();
  const botOptions = {
    botToken: 'xoxb-demo-token',
    apiUrl: webApi.url,
    socketApiUrl: fake.apiUrl,
    state,
    busyText,
    maxDetached: config.maxDetached,
    detachTimeoutMs: timings.detachTimeoutMs,
    handlerMs: config.handlerMs,
    seed: config.seed,
  };
  const a = await startSocketBot({ label: 'A', ...botOptions });
  const connectionA = await fake.waitForConnection(1);
  const plan = planTraffic(config);
  const deployAtMs = plan.items[Math.floor(plan.items.length / 2)]?.atMs ?? 0;
  out.write(
    `rt demo (Socket Mode): instance A connected to the fake Slack (maxDetached ${config.maxDetached}, ` +
      `deferred dispatch); ${plan.items.length} deliveries in ${plan.bursts} bursts over ` +
      `${seconds(config.durationMs)}; deploy at ${seconds(deployAtMs)}: B connects, then A shuts down\n`,
  );

  const stop = new AbortController();
  const onAbort = () => stop.abort(io.signal?.reason);
  if (io.signal?.aborted === true) onAbort();
  else io.signal?.addEventListener('abort', onAbort, { once: true });
  const cap = setTimeout(
    () => stop.abort(new Error(`time cap of ${seconds(timings.capMs)} reached`)),
    timings.capMs,
  );
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const ackWaits: Promise<void>[] = [];
  let b: SocketBot | undefined;
  let deploy: Promise<void> | undefined;
  let aStoppedInMs: number | undefined;
  let peakHeapUsedBytes = 0;
  const sampleHeap = () => {
    peakHeapUsedBytes = Math.max(peakHeapUsedBytes, process.memoryUsage().heapUsed);
  };
  const ticker = setInterval(() => {
    sampleHeap();
    webApi.poll();
    const c = ledger.counters;
    out.write(
      `${seconds(elapsed())}  sent ${c.eventsSent + c.commandsSent + c.clicksSent}/${plan.items.length}` +
        `  envelopes ${fake.sent.length}  acks ${fake.acks.length}  replies ${webApi.counters.messagesPosted}` +
        `  open connections ${fake.openConnections().length}\n`,
    );
  }, PROGRESS_EVERY_MS);

  const spreader = new Spreader(fake);
  const send = (item: PlannedItem, index: number) => {
    const ts = messageTs(index);
    if (item.kind === 'event') {
      ledger.addEvent(item.id, `${DEMO_CHANNEL}:${ts}`);
      spreader.send(
        buildAppMentionEvent({
          eventId: item.id,
          channel: DEMO_CHANNEL,
          ts,
          text: `<@U0BOT> question ${index}: summarise burst ${item.burst + 1}`,
        }),
      );
      return;
    }
    const responseUrl = webApi.responseUrl();
    const record = ledger.addInvocation(item.id, item.kind, responseUrl);
    const payload =
      item.kind === 'command'
        ? buildSlashCommand({
            command: '/ask',
            text: `what happened in burst ${item.burst + 1}?`,
            channelId: DEMO_CHANNEL,
            triggerId: item.id,
            responseUrl,
          })
        : buildBlockActions({
            actionId: 'approve',
            value: `burst-${item.burst + 1}`,
            channelId: DEMO_CHANNEL,
            messageTs: ts,
            triggerId: item.id,
            responseUrl,
          });
    const envelope = spreader.send(payload);
    if (envelope === undefined) return;
    ackWaits.push(
      fake.waitForAck(envelope.envelope_id, 10_000).then(
        (ack) => {
          const text = ack.payload?.text;
          record.ackText = typeof text === 'string' ? text : undefined;
        },
        () => undefined,
      ),
    );
  };

  let stoppedEarly: string | undefined;
  try {
    let index = 0;
    for (const item of plan.items) {
      await sleep(item.atMs - elapsed(), stop.signal);
      if (stop.signal.aborted) break;
      if (deploy === undefined && item.atMs >= deployAtMs) {
        deploy = (async () => {
          b = await startSocketBot({ label: 'B', ...botOptions });
          out.write(`${seconds(elapsed())}  deploy: B connected; A shutting down mid-flood\n`);
          const shutdownStarted = performance.now();
          await a.runtime.shutdown({ graceMs: 10_000 });
          aStoppedInMs = performance.now() - shutdownStarted;
          out.write(`${seconds(elapsed())}  A stopped in ${seconds(aStoppedInMs)}\n`);
        })();
      }
      index += 1;
      send(item, index);
    }
    await deploy;
    await Promise.all(ackWaits);
    // Slack is done when every event was acked or ran out of retries, and B has drained.
    const settled = () => {
      const acked = new Set(fake.acks.map((ack) => ack.envelope?.payload.event_id));
      const expired = new Set(fake.expired.map((e) => e.payload.event_id));
      for (const id of ledger.events.keys()) if (!acked.has(id) && !expired.has(id)) return false;
      return (b?.runtime.stats().detachedInFlight ?? 1) === 0;
    };
    const deadline = performance.now() + timings.drainMs + 3 * plusFive;
    while (!settled() && !stop.signal.aborted && performance.now() < deadline) {
      await sleep(50, stop.signal);
    }
    if (stop.signal.aborted) stoppedEarly = String((stop.signal.reason as Error)?.message);
    else if (!settled()) stoppedEarly = 'Slack did not settle within the drain time';
    await b?.runtime.shutdown({ graceMs: 2000 });
    await a.runtime.shutdown({ graceMs: 0 });
    await a.slack.drainFollowUps();
    await b?.slack.drainFollowUps();
  } finally {
    clearTimeout(cap);
    clearInterval(ticker);
    io.signal?.removeEventListener('abort', onAbort);
  }
  webApi.poll();
  sampleHeap();
  const run: SocketRun = {
    config,
    ledger,
    fake,
    webApi: webApi.counters,
    bots: b === undefined ? [a] : [a, b],
    connectionA,
    aStoppedInMs,
    busyTexts: [busyText, unavailableText],
    peakHeapUsedBytes,
  };
  const invariants = checkSocketInvariants(run, stoppedEarly);
  out.write('\nSocket Mode run: instance A until the deploy, then B\n');
  for (const invariant of invariants) {
    out.write(
      `${invariant.passed ? 'PASS' : 'FAIL'}  ${invariant.name}\n      ${invariant.detail}\n`,
    );
  }
  const failed = invariants.filter((i) => !i.passed).length;
  out.write(
    stoppedEarly !== undefined
      ? `RESULT: STOPPED EARLY (${stoppedEarly}): the run proves nothing\n`
      : failed === 0
        ? `RESULT: all ${invariants.length} invariants passed\n`
        : `RESULT: ${failed} of ${invariants.length} invariants FAILED\n`,
  );
  await fake.close();
  await webApi.close();
  await state.close();
  return { config, invariants, run, ...(stoppedEarly === undefined ? {} : { stoppedEarly }) };
}
