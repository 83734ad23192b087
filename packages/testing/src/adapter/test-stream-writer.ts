import type { PostedMessage, RtEvent } from '@rt/core';
import type { StreamEnd, StreamWriter, StreamWriterLimits } from '@rt/core/adapter';
import type { PostedByBot } from './test-adapter.js';

/** A mutable view of a recorded post: the test writer grows its text in place. */
type Growing = { -readonly [K in keyof PostedByBot]: PostedByBot[K] };

/**
 * The test adapter's `StreamWriter`: no platform, no rate budget beyond 1 ms between writes. The
 * reply is recorded in `posted` at its first write and its `text` grows with every write, so a
 * test sees what a platform would show at any moment, the marker included at the end.
 */
export class TestStreamWriter implements StreamWriter {
  readonly path = 'test';
  readonly limits: StreamWriterLimits = { minIntervalMs: 1, maxCharsPerWrite: 1_000_000 };
  readonly #event: RtEvent;
  readonly #record: (post: PostedByBot) => PostedMessage;
  #post: Growing | undefined;
  #posted: PostedMessage | undefined;

  constructor(event: RtEvent, record: (post: PostedByBot) => PostedMessage) {
    this.#event = event;
    this.#record = record;
  }

  async write(delta: string): Promise<PostedMessage> {
    return this.#add(delta);
  }

  async finish(delta: string, end: StreamEnd): Promise<PostedMessage> {
    return this.#add(end.kind === 'completed' ? delta : delta + end.marker);
  }

  #add(text: string): PostedMessage {
    if (this.#post === undefined || this.#posted === undefined) {
      const post: Growing = {
        channel: this.#event.channel ?? 'C-test',
        thread: this.#event.thread,
        text,
        inReplyTo: this.#event,
      };
      this.#post = post;
      this.#posted = this.#record(post);
      return this.#posted;
    }
    this.#post.text += text;
    return this.#posted;
  }
}
