/**
 * A lazy cancellation: what a delivery, a lock wait or a handler run uses instead of an
 * `AbortController` of its own. Aborting it, listening to it and following other cancellations
 * are plain fields and one array, no `EventTarget`; a real `AbortSignal` is built only when
 * someone asks for `signal` (a handler reading `ctx.signal`, an outbound call), and from then on
 * aborts with the same reason at the same moment. Almost no delivery is ever cancelled, so almost
 * none ever builds one.
 */

/** Something that can end work: a `Cancellation` or a platform `AbortSignal`. */
export type CancelSource = Cancellation | AbortSignal;

/** A one-shot cancellation with listeners; see the module comment. */
export class Cancellation {
  #aborted = false;
  #reason: unknown;
  #controller: AbortController | undefined;
  #listeners: Set<(reason: unknown) => void> | undefined;

  /** True once `abort` was called (or a followed source aborted). */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** The reason it aborted with; `undefined` before. */
  get reason(): unknown {
    return this.#reason;
  }

  /**
   * A real `AbortSignal` mirroring this cancellation (the same one on every read), built on first
   * read: already aborted with the reason when the cancellation has aborted.
   */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * Aborts with `reason` (a `DOMException` `AbortError` when omitted, like `AbortController`):
   * listeners run once, in registration order, and a built signal aborts. Later calls do nothing.
   */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason =
      reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener(this.#reason);
    this.#controller?.abort(this.#reason);
  }

  /** Throws the reason when aborted (like `AbortSignal.throwIfAborted`). */
  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  /**
   * Calls `listener` with the reason when this aborts (never when already aborted: check
   * `aborted` first). Returns the function that removes it; call it when the work is done.
   */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.#aborted) return noop;
    const wrapped = (reason: unknown) => listener(reason);
    this.#listeners ??= new Set();
    this.#listeners.add(wrapped);
    return () => {
      this.#listeners?.delete(wrapped);
    };
  }

  /** Listeners registered and not removed (for tests proving cleanup). */
  get listenerCount(): number {
    return this.#listeners?.size ?? 0;
  }

  /**
   * Aborts this with the reason of the first of `sources` to abort (`undefined` entries skipped;
   * at once when one already has). Returns the function that detaches from every source; call it
   * when the work is done. A followed `AbortSignal` gets one listener, removed by the detacher.
   */
  follow(sources: readonly (CancelSource | undefined)[]): () => void {
    let detachers: (() => void)[] | undefined;
    for (const source of sources) {
      if (source === undefined) continue;
      if (source.aborted) {
        this.abort(source.reason);
        break;
      }
      const detach = listen(source, (reason) => this.abort(reason));
      if (detachers === undefined) detachers = [detach];
      else detachers.push(detach);
    }
    if (detachers === undefined) return noop;
    const all = detachers;
    if (this.#aborted) {
      for (const detach of all) detach();
      return noop;
    }
    return () => {
      for (const detach of all) detach();
      all.length = 0;
    };
  }
}

function noop(): void {}

/** Calls `listener` once `source` aborts; returns the remover. Not called when already aborted. */
export function listen(source: CancelSource, listener: (reason: unknown) => void): () => void {
  if (source instanceof Cancellation) return source.onAbort(listener);
  if (source.aborted) return noop;
  const onAbort = () => listener(source.reason);
  source.addEventListener('abort', onAbort, { once: true });
  return () => source.removeEventListener('abort', onAbort);
}

/**
 * Settles like `promise`, or rejects with the source's reason as soon as `source` aborts (at once
 * when it already has). The listener is removed when either side settles. Not cancelled: the work
 * behind `promise`, whose late rejection is swallowed here.
 */
export function abortableBy<T>(promise: PromiseLike<T>, source: CancelSource): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (source.aborted) {
      Promise.resolve(promise).then(undefined, noop);
      reject(source.reason);
      return;
    }
    const detach = listen(source, reject);
    Promise.resolve(promise).then(
      (value) => {
        detach();
        resolve(value);
      },
      (error: unknown) => {
        detach();
        reject(error);
      },
    );
  });
}

/**
 * Resolves after `ms`, or rejects with the source's reason when `source` aborts first. The timer
 * and the listener are removed either way.
 */
export function delayBy(ms: number, source: CancelSource): Promise<void> {
  return new Promise((resolve, reject) => {
    if (source.aborted) {
      reject(source.reason);
      return;
    }
    const detach = listen(source, (reason) => {
      clearTimeout(timer);
      reject(reason);
    });
    const timer = setTimeout(() => {
      detach();
      resolve();
    }, ms);
  });
}
