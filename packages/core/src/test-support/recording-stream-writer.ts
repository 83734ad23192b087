import type { PostedMessage } from '../adapter/adapter.js';
import type { StreamEnd, StreamWriter, StreamWriterLimits } from '../adapter-kit/stream/writer.js';

/** One call a `RecordingStreamWriter` received. */
export interface RecordedStreamCall {
  readonly kind: 'write' | 'finish' | 'waiting';
  readonly at: number;
  readonly delta: string;
  readonly end?: StreamEnd;
}

/**
 * A `StreamWriter` for the scheduler's tests: it appends what it is given to `text` and records
 * every call with its (fake) time. `answer` may replace a call's effect: throw (a rate limit) or
 * return a promise that never settles until the call's signal aborts.
 */
export class RecordingStreamWriter implements StreamWriter {
  readonly path = 'recording';
  readonly limits: StreamWriterLimits;
  readonly calls: RecordedStreamCall[] = [];
  text = '';
  answer: ((call: RecordedStreamCall, signal: AbortSignal) => Promise<void> | void) | undefined;
  #room: (() => number) | undefined;

  constructor(limits: StreamWriterLimits, room?: () => number) {
    this.limits = limits;
    this.#room = room;
  }

  room(): number {
    return this.#room?.() ?? this.limits.maxCharsPerWrite;
  }

  /** Only the write and finish calls (what counts against the rate). */
  get writes(): RecordedStreamCall[] {
    return this.calls.filter((call) => call.kind !== 'waiting');
  }

  async waiting(signal: AbortSignal): Promise<void> {
    const call: RecordedStreamCall = { kind: 'waiting', at: Date.now(), delta: '' };
    this.calls.push(call);
    await this.answer?.(call, signal);
  }

  async write(delta: string, signal: AbortSignal): Promise<PostedMessage> {
    const call: RecordedStreamCall = { kind: 'write', at: Date.now(), delta };
    this.calls.push(call);
    await this.answer?.(call, signal);
    this.text += delta;
    return { channel: 'C1', id: 'm1' };
  }

  async finish(delta: string, end: StreamEnd, signal: AbortSignal): Promise<PostedMessage> {
    const call: RecordedStreamCall = { kind: 'finish', at: Date.now(), delta, end };
    this.calls.push(call);
    await this.answer?.(call, signal);
    this.text += delta + (end.kind === 'completed' ? '' : end.marker);
    return { channel: 'C1', id: 'm1' };
  }
}

/** Resolves never, or rejects with `signal.reason` when it aborts. */
export function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
