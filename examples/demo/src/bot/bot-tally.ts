import type { Observation, Outcome, Runtime } from '@rt/core';
import { HandlerGauge } from './handler-gauge.js';

/**
 * What the bot itself handled: handler completions per id, by kind (Slack mentions, `/ask` and
 * clicks; Discord gateway mentions, `/ask` and button clicks over HTTP interactions).
 */
export type HandledKind =
  | 'event'
  | 'command'
  | 'click'
  | 'discordMessage'
  | 'discordCommand'
  | 'discordClick';

/**
 * The bot's own record of the run: which deliveries its handlers finished (per id, so a second
 * handling would show as a count of 2), and what the runtime reported through its observers.
 */
export class BotTally {
  readonly handled: Record<HandledKind, Map<string, number>> = {
    event: new Map(),
    command: new Map(),
    click: new Map(),
    discordMessage: new Map(),
    discordCommand: new Map(),
    discordClick: new Map(),
  };
  /** `dispatch_admitted` observations, by adapter. */
  readonly admittedByAdapter = new Map<string, number>();
  /** `dispatch_finished` observations, by adapter, then outcome. */
  readonly finishedByAdapter = new Map<string, Map<string, number>>();
  /** `dispatch_admitted` observations, by shape. */
  readonly admittedByShape = new Map<string, number>();
  /** `admission_rejected` observations, by shape. */
  readonly rejectedByShape = new Map<string, number>();
  /** `dispatch_finished` observations, by `shape/outcome`. */
  readonly finished = new Map<string, number>();
  /** `adapter_notice` observations, by name. */
  readonly notices = new Map<string, number>();
  /** `stream_finished` observations, by `adapter path status` (the bot's own word on each stream). */
  readonly streams = new Map<string, number>();
  /** Handlers the runtime stopped (its signal aborted) before they answered, per id, by kind. */
  readonly interrupted: Record<HandledKind, Map<string, number>> = {
    event: new Map(),
    command: new Map(),
    click: new Map(),
    discordMessage: new Map(),
    discordCommand: new Map(),
    discordClick: new Map(),
  };
  /** Times the model saw its consumer stop pulling (its generator's `return()` before the end). */
  modelStops = 0;
  /** Admission slots in use, read synchronously at every dedupe mark (right after admission). */
  peakAtAdmission = 0;
  /** How many admissions the probe saw. */
  admissionsProbed = 0;
  /** Highest `detachedInFlight` read when an admission or rejection was observed. */
  peakAtObservation = 0;
  /**
   * Every deferred handler body of the runtime, both platforms, counted by the handlers' own
   * wrapper (not by the runtime): its peak is the bound check.
   */
  readonly allHandlers = new HandlerGauge();
  /** The Slack handler bodies (also counted in `allHandlers`). */
  readonly handlers = new HandlerGauge(this.allHandlers);
  /** The Discord handler bodies, kept apart so each platform's checks add up on their own. */
  readonly discordHandlers = new HandlerGauge(this.allHandlers);
  #runtime: Runtime | undefined;

  bind(runtime: Runtime): void {
    this.#runtime = runtime;
  }

  /** Count of finished handlers for `kind`. */
  handledCount(kind: HandledKind): number {
    return this.handled[kind].size;
  }

  recordHandled(kind: HandledKind, id: string): void {
    const map = this.handled[kind];
    map.set(id, (map.get(id) ?? 0) + 1);
  }

  /** A handler whose signal aborted before it answered (it said so to its user, or its stream did). */
  recordInterrupted(kind: HandledKind, id: string): void {
    const map = this.interrupted[kind];
    map.set(id, (map.get(id) ?? 0) + 1);
  }

  /** Count of interrupted handlers for `kind`. */
  interruptedCount(kind: HandledKind): number {
    return this.interrupted[kind].size;
  }

  /** `stream_finished` observations of `adapter`, by `path status`. */
  streamsOf(adapter: string): Map<string, number> {
    const mine = new Map<string, number>();
    for (const [key, count] of this.streams) {
      const [name, path, status] = key.split(' ');
      if (name === adapter) mine.set(`${path} ${status}`, count);
    }
    return mine;
  }

  /** Called from the State probe at every `markEvent`, i.e. right after a slot was reserved. */
  probeAdmission(): void {
    const inFlight = this.#runtime?.stats().detachedInFlight ?? 0;
    this.admissionsProbed += 1;
    if (inFlight > this.peakAtAdmission) this.peakAtAdmission = inFlight;
  }

  /** Terminal outcomes of one adapter's deliveries, by outcome (`runtime.stats()` per platform). */
  outcomesOf(adapter: string): Record<string, number> {
    return Object.fromEntries(this.finishedByAdapter.get(adapter) ?? new Map());
  }

  /** Deliveries of one adapter the runtime accepted. */
  acceptedOf(adapter: string): number {
    return this.admittedByAdapter.get(adapter) ?? 0;
  }

  finishedCount(shape: string, outcome: Outcome): number {
    return this.finished.get(`${shape}/${outcome}`) ?? 0;
  }

  /** The runtime observer. Synchronous and cheap. */
  readonly observe = (observation: Observation): void => {
    switch (observation.type) {
      case 'dispatch_admitted':
        bump(this.admittedByShape, observation.event.shape);
        bump(this.admittedByAdapter, observation.event.adapter);
        this.#sampleInFlight();
        break;
      case 'admission_rejected':
        bump(this.rejectedByShape, observation.event.shape);
        this.#sampleInFlight();
        break;
      case 'dispatch_finished':
        bump(this.finished, `${observation.event.shape}/${observation.outcome}`);
        bumpIn(this.finishedByAdapter, observation.event.adapter, observation.outcome);
        break;
      case 'adapter_notice':
        bump(this.notices, observation.name);
        break;
      case 'stream_finished':
        bump(this.streams, `${observation.adapter} ${observation.path} ${observation.status}`);
        break;
      default:
        break;
    }
  };

  #sampleInFlight(): void {
    const inFlight = this.#runtime?.stats().detachedInFlight ?? 0;
    if (inFlight > this.peakAtObservation) this.peakAtObservation = inFlight;
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function bumpIn(maps: Map<string, Map<string, number>>, outer: string, key: string): void {
  let map = maps.get(outer);
  if (map === undefined) {
    map = new Map();
    maps.set(outer, map);
  }
  bump(map, key);
}
