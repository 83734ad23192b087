import type { DeliveryResult } from '@rt/testing/slack';

/** One delivery attempt of an Events API event, as the simulator saw it. */
export interface AttemptRecord {
  /** 0 for the first delivery, 1..3 for Slack's retries. */
  readonly attempt: number;
  readonly result: DeliveryResult;
}

/**
 * Where an Events API event stands, from Slack's point of view. `awaiting-retry`: Slack holds a
 * scheduled retry it will deliver. `retry-cancelled`: the run stopped early and dropped that
 * retry (real Slack would still send it; the demo never saw what happened). `exhausted`: Slack
 * has no retry left (or was told `x-slack-no-retry`).
 */
export type EventStatus =
  | 'in-flight'
  | 'acked'
  | 'awaiting-retry'
  | 'retry-cancelled'
  | 'exhausted';

export interface EventRecord {
  readonly id: string;
  /** The thread (`channel:ts`) the mention starts: where its one reply must appear. */
  readonly thread: string;
  status: EventStatus;
  readonly attempts: AttemptRecord[];
}

/** A slash command or button click and what its user saw. */
export interface InvocationRecord {
  readonly id: string;
  readonly kind: 'command' | 'click';
  /** Path of the `response_url` handed out with it. */
  readonly responseUrlPath: string;
  ack: DeliveryResult | undefined;
  /** Text shown by the acknowledgement itself (slash command busy answers). */
  ackText: string | undefined;
  /** Texts posted to its `response_url`, in arrival order. */
  readonly responseTexts: string[];
}

/** Counters the live view reads: each one counts something the simulator observed. */
export interface SimulatorCounters {
  /** First deliveries of unique events sent so far. */
  eventsSent: number;
  /** Every Events API delivery attempt, first ones and retries. */
  deliveries: number;
  /** Events acknowledged with a 2xx (each event once). */
  eventsAcked: number;
  /** Events API deliveries answered 503 (the retry signal). */
  rejected503: number;
  /** Events API deliveries that failed otherwise (other status, 3 s timeout, connection). */
  otherFailures: number;
  /** Failed deliveries answered with `x-slack-no-retry: 1` (Slack would drop the event). */
  noRetry: number;
  /** Retries sent, by retry number (index 1..3). */
  readonly redelivered: [number, number, number, number];
  /** Events whose three retries all failed: Slack would stop. */
  exhausted: number;
  /** Events whose scheduled retry was dropped because the run stopped early. */
  retriesCancelled: number;
  commandsSent: number;
  clicksSent: number;
  /** Invocations whose acknowledgement came back (any status). */
  invocationsAcked: number;
  /** Invocations whose acknowledgement failed or was not a 200. */
  invocationsFailed: number;
}

/** Everything the simulator knows about one run. */
export class SimulatorLedger {
  readonly events = new Map<string, EventRecord>();
  readonly invocations = new Map<string, InvocationRecord>();
  readonly #byResponsePath = new Map<string, InvocationRecord>();
  /**
   * Thread replies (`chat.postMessage` with `thread_ts`) per thread `channel:thread_ts`, as the
   * simulated Web API received them: the simulator's observation, not the bot's word.
   */
  readonly repliesPerThread = new Map<string, number>();
  /** `chat.postMessage` calls outside any event's thread (top-level posts or unknown threads). */
  strayMessages = 0;
  readonly #eventByThread = new Map<string, EventRecord>();
  readonly counters: SimulatorCounters = {
    eventsSent: 0,
    deliveries: 0,
    eventsAcked: 0,
    rejected503: 0,
    otherFailures: 0,
    noRetry: 0,
    redelivered: [0, 0, 0, 0],
    exhausted: 0,
    retriesCancelled: 0,
    commandsSent: 0,
    clicksSent: 0,
    invocationsAcked: 0,
    invocationsFailed: 0,
  };

  addEvent(id: string, thread: string): EventRecord {
    const record: EventRecord = { id, thread, status: 'in-flight', attempts: [] };
    this.events.set(id, record);
    this.#eventByThread.set(thread, record);
    this.counters.eventsSent += 1;
    return record;
  }

  /** Records an attempt's result; returns true when it was acknowledged (2xx). */
  recordAttempt(record: EventRecord, attempt: number, result: DeliveryResult): boolean {
    record.attempts.push({ attempt, result });
    this.counters.deliveries += 1;
    if (attempt > 0)
      this.counters.redelivered[attempt] = (this.counters.redelivered[attempt] ?? 0) + 1;
    const ok = result.kind === 'response' && result.status >= 200 && result.status < 300;
    if (!ok && result.kind === 'response' && result.noRetry) this.counters.noRetry += 1;
    if (ok) {
      if (record.status !== 'acked') this.counters.eventsAcked += 1;
      record.status = 'acked';
    } else if (result.kind === 'response' && result.status === 503) {
      this.counters.rejected503 += 1;
    } else {
      this.counters.otherFailures += 1;
    }
    return ok;
  }

  markAwaitingRetry(record: EventRecord): void {
    record.status = 'awaiting-retry';
  }

  markExhausted(record: EventRecord): void {
    record.status = 'exhausted';
    this.counters.exhausted += 1;
  }

  /** The stop dropped the retry this event was waiting for. */
  markRetryCancelled(record: EventRecord): void {
    if (record.status === 'acked' || record.status === 'retry-cancelled') return;
    record.status = 'retry-cancelled';
    this.counters.retriesCancelled += 1;
  }

  /** A `chat.postMessage` the Web API received, in `channel` with `threadTs` (if any). */
  recordMessage(channel: string, threadTs: string | undefined): void {
    const thread = `${channel}:${threadTs ?? ''}`;
    if (threadTs === undefined || !this.#eventByThread.has(thread)) {
      this.strayMessages += 1;
      return;
    }
    this.repliesPerThread.set(thread, (this.repliesPerThread.get(thread) ?? 0) + 1);
  }

  /** Thread replies the Web API received for `record`'s thread. */
  repliesTo(record: EventRecord): number {
    return this.repliesPerThread.get(record.thread) ?? 0;
  }

  addInvocation(id: string, kind: 'command' | 'click', responseUrl: string): InvocationRecord {
    const record: InvocationRecord = {
      id,
      kind,
      responseUrlPath: new URL(responseUrl).pathname,
      ack: undefined,
      ackText: undefined,
      responseTexts: [],
    };
    this.invocations.set(id, record);
    this.#byResponsePath.set(record.responseUrlPath, record);
    if (kind === 'command') this.counters.commandsSent += 1;
    else this.counters.clicksSent += 1;
    return record;
  }

  recordInvocationAck(record: InvocationRecord, result: DeliveryResult): void {
    record.ack = result;
    if (result.kind === 'response' && result.status === 200) {
      this.counters.invocationsAcked += 1;
      record.ackText = ackTextOf(result);
    } else {
      this.counters.invocationsFailed += 1;
    }
  }

  /** A post to a handed-out `response_url`; returns the invocation it belongs to. */
  recordResponsePost(path: string, text: string): InvocationRecord | undefined {
    const record = this.#byResponsePath.get(path);
    record?.responseTexts.push(text);
    return record;
  }
}

/** The text a slash command acknowledgement shows its user (Slack renders JSON `text`). */
function ackTextOf(result: DeliveryResult & { kind: 'response' }): string | undefined {
  if (result.body.length === 0) return undefined;
  if (result.contentType?.includes('application/json')) {
    try {
      const parsed = JSON.parse(result.body) as { text?: unknown };
      return typeof parsed.text === 'string' ? parsed.text : undefined;
    } catch {
      return result.body;
    }
  }
  return result.body;
}
