import { DEFAULT_SLACK_ADAPTER_OPTIONS } from '@rt/adapter-slack';
import { createMemoryState } from '@rt/state-memory';
import {
  buildAppMentionEvent,
  buildBlockActions,
  buildBlockSuggestion,
  buildSlashCommand,
  type FakeSocketConnection,
  startFakeSocketMode,
} from '@rt/testing/slack';
import type { DemoConfig } from '../config/demo-config.js';
import type { DemoTimings } from '../config/limits.js';
import type { DemoIo } from '../run-demo.js';
import { SimulatorLedger } from '../simulator/ledger.js';
import { DEMO_CHANNEL, mentionChannel, messageTs } from '../simulator/slack-simulator.js';
import { sleep } from '../simulator/sleep.js';
import { type PlannedItem, planTraffic } from '../simulator/traffic-plan.js';
import { SimulatedWebApi } from '../simulator/web-api.js';
import type { Invariant } from '../summary/invariants.js';
import { slackStreamedReplies } from '../summary/stream-replies.js';
import { seconds } from '../view/format.js';
import { SLOW_OPTIONS_MS, type SocketBot, startSocketBot } from './socket-bot.js';
import { checkSocketInvariants, type SocketRun } from './socket-checks.js';
import { renderSocketSummary } from './socket-summary.js';
import { Spreader } from './spreader.js';

/** The measured result of one Socket Mode run. */
export interface SocketDemoReport {
  readonly config: DemoConfig;
  readonly invariants: readonly Invariant[];
  readonly run: SocketRun;
  /** Why the run stopped before Slack had finished; absent when it ran to the end. */
  readonly stoppedEarly?: string;
}

const PROGRESS_EVERY_MS = 1500;
/** Planned events and /ask sent on A right after its shutdown began (fewer when fewer are left). */
const DEPLOY_PROBE_EVENTS = 3;
const DEPLOY_PROBE_COMMANDS = 2;

/**
 * A's shutdown grace at the deploy: half the mean handler time, so many of the handlers A is
 * running then outlive it (a deploy whose old instance is given little time, like a short
 * termination grace): their signal aborts, their streams end with the interrupted marker, a
 * stopped `/ask` or click tells its user so. Never less than the options load in flight plus
 * 200 ms: that load (sync) holds A's socket open while A reads what arrives after its admission
 * closed, and must not be cut itself.
 */
export function deployGraceMs(config: DemoConfig): number {
  return Math.max(SLOW_OPTIONS_MS + 200, Math.round(config.handlerMs / 2));
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
  let aSentBeforeShutdown: number | undefined;
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
  let index = 0;
  const send = (item: PlannedItem, to?: FakeSocketConnection) => {
    index += 1;
    const ts = messageTs(index);
    if (item.kind === 'event') {
      const channel = mentionChannel(index);
      ledger.addEvent(item.id, `${channel}:${ts}`);
      spreader.send(
        buildAppMentionEvent({
          eventId: item.id,
          channel,
          ts,
          text: `<@U0BOT> question ${index}: summarise burst ${item.burst + 1}`,
        }),
        to,
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
    const envelope = spreader.send(payload, to);
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
  // Planned events sent early, on A, right after its admission closed (see the deploy).
  const sentEarly = new Set<string>();
  let position = 0;
  try {
    for (const item of plan.items) {
      position += 1;
      if (sentEarly.has(item.id)) continue;
      await sleep(item.atMs - elapsed(), stop.signal);
      if (stop.signal.aborted) break;
      if (deploy === undefined && item.atMs >= deployAtMs) {
        deploy = (async () => {
          b = await startSocketBot({ label: 'B', ...botOptions });
          // A user is typing in `/ask`'s question select on A: a slow options load (sync, its
          // ack owed) is in flight when the deploy stops A, so A's socket stays open a moment
          // while envelopes keep arriving, as it would in production.
          if (connectionA.open) {
            fake.send(buildBlockSuggestion({ actionId: 'question', value: 'ca' }), {
              to: connectionA,
            });
            const gaveUp = new AbortController();
            const cut = () => gaveUp.abort();
            stop.signal.addEventListener('abort', cut, { once: true });
            try {
              await Promise.race([a.optionsLoadStarted, sleep(2000, gaveUp.signal)]);
            } finally {
              gaveUp.abort();
              stop.signal.removeEventListener('abort', cut);
            }
          }
          out.write(
            `${seconds(elapsed())}  deploy: B connected; A shutting down mid-flood (grace ` +
              `${seconds(deployGraceMs(config))})\n`,
          );
          const shutdownStarted = performance.now();
          // Admission closes synchronously in shutdown(): what the fake sends on A after this
          // index reached a runtime that may not accept it (the checks read the fake's record).
          aSentBeforeShutdown = connectionA.sent.length;
          const stopped = a.runtime.shutdown({ graceMs: deployGraceMs(config) });
          // Slack keeps sending on a connection until it closes: the next few planned events and
          // /ask go to A now, after its admission closed. A must leave the events unacked (the
          // fake redelivers them to B, which handles each once) and ack each /ask with the busy
          // payload before its socket closes.
          const probe = plan.items.slice(position).filter((next) => !sentEarly.has(next.id));
          const events = probe
            .filter((next) => next.kind === 'event')
            .slice(0, DEPLOY_PROBE_EVENTS);
          const commands = probe
            .filter((next) => next.kind === 'command')
            .slice(0, DEPLOY_PROBE_COMMANDS);
          for (const next of [...events, ...commands]) {
            sentEarly.add(next.id);
            send(next, connectionA);
          }
          await stopped;
          aStoppedInMs = performance.now() - shutdownStarted;
          out.write(`${seconds(elapsed())}  A stopped in ${seconds(aStoppedInMs)}\n`);
        })();
      }
      send(item);
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
    aSentBeforeShutdown,
    aStoppedInMs,
    busyTexts: [busyText, unavailableText],
    peakHeapUsedBytes,
    deployGraceMs: deployGraceMs(config),
    streamed: slackStreamedReplies(ledger, webApi.messages()),
  };
  const invariants = checkSocketInvariants(run, stoppedEarly);
  out.write(renderSocketSummary({ run, plan, invariants, elapsedMs: elapsed(), stoppedEarly }));
  await fake.close();
  await webApi.close();
  await state.close();
  return { config, invariants, run, ...(stoppedEarly === undefined ? {} : { stoppedEarly }) };
}
