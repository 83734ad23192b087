import {
  buildAppMentionEvent,
  buildSlashCommand,
  type DeliveryResult,
  RedeliveryScheduler,
  type RetryReason,
  SignerClient,
  SLACK_RETRY_DELAYS_MS,
  type SlackTestPayload,
} from '@rt/testing/slack';
import type { EmissionLog } from './emission-log.js';

/** One planned first delivery: an Events API mention or a slash command (never redelivered). */
export interface FloodItem {
  readonly kind: 'event' | 'command';
  /** `event_id` of an event, `trigger_id` of a command. Unique per plan. */
  readonly id: string;
  readonly tenant: string;
  /** When to send it, after the start. */
  readonly atMs: number;
  /** The thread (`thread_ts`) an event replies in; unset: it starts its own. */
  readonly thread?: string;
}

/** Shape of a flood. */
export interface FloodPlanInput {
  readonly events: number;
  readonly commands: number;
  /** Installations (`team_id`s) the traffic is spread over; the first is the hot one. */
  readonly tenants: readonly string[];
  /** Share of the traffic from the first (hot) tenant, 0..1. The rest is spread evenly. */
  readonly hotShare: number;
  /** Deliveries per burst; a burst far above the bound is the point. */
  readonly burstSize: number;
  /** Time between bursts: at least Slack's compressed retry horizon plus a slow handler. */
  readonly burstGapMs: number;
  readonly seed: number;
  /** Events reply in one of this many threads per tenant (so they contend); unset: none do. */
  readonly threads?: number;
}

/** A small seeded PRNG (mulberry32), so a failing plan can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Sum of Slack's retry delays divided by `timeScale`: how long Slack keeps an event alive. */
export function retryHorizonMs(timeScale: number): number {
  return SLACK_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0) / timeScale;
}

/** Plans the flood: events and commands shuffled, in bursts of `burstSize` sent within 5 ms. */
export function planFlood(input: FloodPlanInput): FloodItem[] {
  const random = seededRandom(input.seed);
  const kinds: FloodItem['kind'][] = [
    ...Array<FloodItem['kind']>(input.events).fill('event'),
    ...Array<FloodItem['kind']>(input.commands).fill('command'),
  ];
  for (let i = kinds.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  const [hot, ...cold] = input.tenants;
  if (hot === undefined) throw new RangeError('tenants must name at least one installation');
  return kinds.map((kind, i) => {
    const tenant =
      cold.length === 0 || random() < input.hotShare
        ? hot
        : cold[Math.floor(random() * cold.length)]!;
    const burst = Math.floor(i / input.burstSize);
    const item: FloodItem = {
      kind,
      id: `${kind === 'event' ? 'Ev' : 'trg.'}${String(i).padStart(6, '0')}`,
      tenant,
      atMs: burst * input.burstGapMs + random() * 5,
    };
    if (input.threads === undefined || kind !== 'event') return item;
    return {
      ...item,
      thread: `1700000000.${String(Math.floor(random() * input.threads)).padStart(6, '0')}`,
    };
  });
}

/** One delivery attempt: where it went, when (`performance.now()`), and how it ended. */
export interface AttemptRecord {
  readonly attempt: number;
  readonly url: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly result: DeliveryResult;
}

/** Where one Events API event stands, from Slack's side. */
export interface EventLedgerEntry {
  readonly item: FloodItem;
  readonly attempts: AttemptRecord[];
  status: 'in-flight' | 'acked' | 'awaiting-retry' | 'exhausted' | 'retry-cancelled';
}

/** What one slash command's user saw: the acknowledgement and whether it was the busy text. */
export interface CommandLedgerEntry {
  readonly item: FloodItem;
  ack: DeliveryResult | undefined;
}

/** Counters of a flood, as Slack saw it. */
export interface FloodCounters {
  /** First deliveries sent (events and commands). */
  sent: number;
  /** Every Events API attempt, first ones and retries. */
  eventDeliveries: number;
  /** Events API retries sent (`x-slack-retry-num` 1..3). */
  retried: number;
  /** Events acknowledged with a 2xx (each event once). */
  eventsAcked: number;
  /** Events API deliveries answered 503. */
  rejected503: number;
  /** Events API deliveries answered with `x-slack-no-retry: 1` (Slack would drop the event). */
  noRetry: number;
  /** Events API attempts that failed otherwise (another status, 3 s timeout, connection). */
  otherFailures: number;
  /** Events Slack has no retry left for. */
  exhausted: number;
  /** Events whose retry the run's stop dropped (real Slack still owes it). */
  retriesCancelled: number;
}

/**
 * Plays Slack towards a bot over real HTTP: every first delivery on time, every attempt signed
 * afresh (`SignerClient`), failed Events API deliveries redelivered on Slack's schedule divided
 * by `timeScale` (`RedeliveryScheduler`), slash commands never redelivered. Each response body is
 * added to `log`, so the secret scan covers what clients received.
 */
export class SlackFlood {
  readonly events = new Map<string, EventLedgerEntry>();
  readonly commands = new Map<string, CommandLedgerEntry>();
  readonly counters: FloodCounters = {
    sent: 0,
    eventDeliveries: 0,
    retried: 0,
    eventsAcked: 0,
    rejected503: 0,
    noRetry: 0,
    otherFailures: 0,
    exhausted: 0,
    retriesCancelled: 0,
  };
  readonly scheduler: RedeliveryScheduler;
  readonly #clients = new Map<string, SignerClient>();
  readonly #secret: string;
  readonly #urlFor: (item: FloodItem, attempt: number) => string;
  readonly #log: EmissionLog | undefined;
  readonly #responseUrl: () => string;

  constructor(options: {
    readonly url: string;
    /** Where each attempt goes (a load balancer in front of several instances); default `url`. */
    readonly urlFor?: (item: FloodItem, attempt: number) => string;
    readonly secret: string;
    readonly timeScale: number;
    readonly log?: EmissionLog;
    /** A `response_url` per command (the bed's fake Web API). */
    readonly responseUrl: () => string;
  }) {
    this.#secret = options.secret;
    this.#urlFor = options.urlFor ?? (() => options.url);
    this.scheduler = new RedeliveryScheduler(options.timeScale);
    this.#log = options.log;
    this.#responseUrl = options.responseUrl;
  }

  /**
   * Sends `items` at their times and resolves once Slack has nothing left to send: every
   * attempt answered and no retry scheduled. `signal` stops early: unsent items are skipped and
   * scheduled retries dropped (`retry-cancelled`).
   */
  async run(items: readonly FloodItem[], signal?: AbortSignal): Promise<void> {
    const stop = () => this.scheduler.cancel();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const start = performance.now();
      for (const item of [...items].sort((a, b) => a.atMs - b.atMs)) {
        if (signal?.aborted) break;
        const wait = start + item.atMs - performance.now();
        if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
        if (signal?.aborted) break;
        this.counters.sent += 1;
        this.scheduler.track(this.#first(item));
      }
      await this.scheduler.idle();
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  #first(item: FloodItem): Promise<void> {
    if (item.kind === 'command') {
      const entry: CommandLedgerEntry = { item, ack: undefined };
      this.commands.set(item.id, entry);
      const payload = buildSlashCommand({
        command: '/flood',
        text: item.id,
        teamId: item.tenant,
        triggerId: item.id,
        responseUrl: this.#responseUrl(),
      });
      return this.#client(this.#urlFor(item, 0))
        .deliver(payload)
        .then((result) => {
          this.#record(result);
          entry.ack = result;
        });
    }
    const entry: EventLedgerEntry = { item, attempts: [], status: 'in-flight' };
    this.events.set(item.id, entry);
    const payload = buildAppMentionEvent({
      eventId: item.id,
      teamId: item.tenant,
      channel: `C${item.tenant}`,
      ts: `1800000000.${item.id.slice(2)}`,
      text: `<@U0BOT> ${item.id}`,
      ...(item.thread === undefined ? {} : { threadTs: item.thread }),
    });
    return this.#attempt(entry, payload, 0);
  }

  async #attempt(
    entry: EventLedgerEntry,
    payload: SlackTestPayload,
    attempt: number,
    reason?: RetryReason,
  ): Promise<void> {
    const url = this.#urlFor(entry.item, attempt);
    const startedAt = performance.now();
    const result = await this.#client(url).deliver(
      payload,
      attempt === 0
        ? undefined
        : { 'x-slack-retry-num': String(attempt), 'x-slack-retry-reason': reason ?? 'http_error' },
    );
    this.#record(result);
    entry.attempts.push({ attempt, url, startedAt, endedAt: performance.now(), result });
    this.counters.eventDeliveries += 1;
    if (attempt > 0) this.counters.retried += 1;
    if (result.kind === 'response' && result.status >= 200 && result.status < 300) {
      if (entry.status !== 'acked') this.counters.eventsAcked += 1;
      entry.status = 'acked';
      return;
    }
    if (result.kind === 'response' && result.status === 503) this.counters.rejected503 += 1;
    else this.counters.otherFailures += 1;
    if (result.kind === 'response' && result.noRetry) {
      this.counters.noRetry += 1;
      this.counters.exhausted += 1;
      entry.status = 'exhausted';
      return;
    }
    const next = attempt + 1;
    const scheduled = this.scheduler.schedule(
      next,
      () =>
        this.#attempt(
          entry,
          payload,
          next,
          result.kind === 'timeout'
            ? 'http_timeout'
            : result.kind === 'connection_failed'
              ? 'connection_failed'
              : 'http_error',
        ),
      () => {
        entry.status = 'retry-cancelled';
        this.counters.retriesCancelled += 1;
      },
    );
    if (scheduled === 'scheduled') entry.status = 'awaiting-retry';
    else if (scheduled === 'exhausted') {
      entry.status = 'exhausted';
      this.counters.exhausted += 1;
    } else {
      entry.status = 'retry-cancelled';
      this.counters.retriesCancelled += 1;
    }
  }

  #client(url: string): SignerClient {
    let client = this.#clients.get(url);
    if (client === undefined) {
      client = new SignerClient(url, this.#secret);
      this.#clients.set(url, client);
    }
    return client;
  }

  #record(result: DeliveryResult): void {
    if (result.kind === 'response') this.#log?.add(result.body);
    else if (result.kind === 'connection_failed') this.#log?.add(String(result.error));
  }
}
