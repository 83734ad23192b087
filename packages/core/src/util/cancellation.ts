/**
 * The cancellation half of rt's one family of signal helpers (the waiting half, `abortable`,
 * `delay`, `timeoutSignal` and `anySignal`, is `signals.ts` beside it, and works on both kinds of
 * source). A lazy cancellation: what a delivery, a lock wait or a handler run uses instead of an
 * `AbortController` of its own. Aborting it, listening to it and following other cancellations
 * are plain fields and one array, no `EventTarget`; a real `AbortSignal` is built only when
 * someone asks for `signal` (a handler reading `ctx.signal`, an outbound call), and from then on
 * aborts with the same reason at the same moment. Almost no delivery is ever cancelled, so almost
 * none ever builds one.
 */

/** Something that can end work: a `Cancellation` or a platform `AbortSignal`. */
export type CancelSource = Cancellation | AbortSignal;

/** An object told when a watched source aborts: what `Cancellation.watch` takes, no closure. */
export interface AbortHandler {
  handleAbort(reason: unknown): void;
}

/**
 * A registration made by `Cancellation.watch`; give it to `Cancellation.unwatch` with the same
 * handler. (A list node, the watched cancellation itself when the handler is held inline, or a
 * platform signal's remover.)
 */
export type Watch = { readonly watching: true } | (() => void);

/**
 * One registered listener: a node of its cancellation's doubly linked list (O(1) removal). A
 * follower's node names the cancellation it aborts instead of holding a closure.
 */
class ListenerNode {
  prev: ListenerNode | undefined;
  next: ListenerNode | undefined;
  owner: Cancellation | undefined;
  constructor(
    readonly listener: ((reason: unknown) => void) | undefined,
    readonly follower: Cancellation | AbortHandler | undefined,
    owner: Cancellation,
  ) {
    this.owner = owner;
  }

  /** What makes it a `Watch` (a prototype getter: no field per node). */
  get watching(): true {
    return true;
  }
}

/**
 * A one-shot cancellation with listeners; see the module comment. It is itself an `AbortHandler`
 * (`handleAbort` aborts it), so `Cancellation.watch(source, cancellation)` makes it follow one
 * source with no closure: held inline when it is the source's only registration (what a handler
 * run following its delivery is), one list node otherwise.
 */
export class Cancellation implements AbortHandler {
  /** `undefined` until aborted; never `undefined` after (`abort` fills in a default reason). */
  #reason: unknown;
  #controller: AbortController | undefined;
  /**
   * A follower registered while nothing else was (no list node for it): it comes before every
   * node of the list, which keeps registration order; once it is removed, new registrations go
   * to the list until the list is empty again.
   */
  #first: Cancellation | AbortHandler | undefined;
  #head: ListenerNode | undefined;
  #tail: ListenerNode | undefined;

  /** Is this a `Watch` (the handle of an inline follower)? A prototype getter, no field. */
  get watching(): true {
    return true;
  }

  /** True once `abort` was called (or a followed source aborted). */
  get aborted(): boolean {
    return this.#reason !== undefined;
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
      if (this.aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * Aborts with `reason` (a `DOMException` `AbortError` when omitted, like `AbortController`):
   * listeners run once, in registration order, and a built signal aborts. Later calls do nothing.
   */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.#reason =
      reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const first = this.#first;
    this.#first = undefined;
    let node = this.#head;
    this.#head = undefined;
    this.#tail = undefined;
    if (first !== undefined) tellFollower(first, this.#reason);
    while (node !== undefined) {
      const next = node.next;
      node.owner = undefined;
      node.prev = undefined;
      node.next = undefined;
      if (node.follower !== undefined) tellFollower(node.follower, this.#reason);
      else node.listener?.(this.#reason);
      node = next;
    }
    this.#controller?.abort(this.#reason);
  }

  /** Aborts with `reason`: what a watched source that aborted calls. */
  handleAbort(reason: unknown): void {
    this.abort(reason);
  }

  /** Throws the reason when aborted (like `AbortSignal.throwIfAborted`). */
  throwIfAborted(): void {
    if (this.aborted) throw this.#reason;
  }

  /**
   * Calls `listener` with the reason when this aborts (never when already aborted: check
   * `aborted` first). Returns the function that removes it; call it when the work is done.
   */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.aborted) return noop;
    const node = this.#add(listener);
    return () => this.#remove(node);
  }

  /** Listeners registered and not removed (for tests proving cleanup; walks the list). */
  get listenerCount(): number {
    let count = this.#first === undefined ? 0 : 1;
    for (let node = this.#head; node !== undefined; node = node.next) count += 1;
    return count;
  }

  /** Registers `follower`: inline (returns this) when nothing else is registered, else a node. */
  #addFollower(follower: Cancellation | AbortHandler): ListenerNode | Cancellation {
    if (this.#first === undefined && this.#head === undefined) {
      this.#first = follower;
      return this;
    }
    return this.#add(undefined, follower);
  }

  /** Removes `follower` when it is the inline one (what unwatching an inline handle does). */
  #dropFirst(follower: Cancellation | AbortHandler): void {
    if (this.#first === follower) this.#first = undefined;
  }

  #add(
    listener: ((reason: unknown) => void) | undefined,
    follower?: Cancellation | AbortHandler,
  ): ListenerNode {
    const node = new ListenerNode(listener, follower, this);
    if (this.#tail === undefined) this.#head = node;
    else {
      this.#tail.next = node;
      node.prev = this.#tail;
    }
    this.#tail = node;
    return node;
  }

  #remove(node: ListenerNode): void {
    if (node.owner !== this) return;
    node.owner = undefined;
    if (node.prev === undefined) this.#head = node.next;
    else node.prev.next = node.next;
    if (node.next === undefined) this.#tail = node.prev;
    else node.next.prev = node.prev;
    node.prev = undefined;
    node.next = undefined;
  }

  /**
   * Aborts this with the reason of the first of `sources` to abort (`undefined` entries skipped;
   * at once when one already has). Returns the function that detaches from every source; call it
   * when the work is done. A followed `AbortSignal` gets one listener, removed by the detacher.
   */
  follow(sources: readonly (CancelSource | undefined)[]): () => void {
    const forward = (reason: unknown) => this.abort(reason);
    // Registrations on followed cancellations (a node, or the source holding this inline),
    // removers of listeners on platform signals.
    const attached: (ListenerNode | Cancellation | (() => void))[] = [];
    for (const source of sources) {
      if (source === undefined) continue;
      if (source.aborted) {
        this.abort(source.reason);
        break;
      }
      attached.push(
        source instanceof Cancellation ? source.#addFollower(this) : listen(source, forward),
      );
    }
    if (attached.length === 0) return noop;
    const detachAll = () => {
      for (const entry of attached) {
        if (entry instanceof Cancellation) entry.#dropFirst(this);
        else if (!(entry instanceof ListenerNode)) entry();
        else if (entry.owner !== undefined) entry.owner.#remove(entry);
      }
      attached.length = 0;
    };
    if (this.aborted) {
      detachAll();
      return noop;
    }
    return detachAll;
  }

  /**
   * Calls `handler.handleAbort(reason)` once `source` aborts (never when it already has: check
   * `aborted` first). On a `Cancellation` this allocates nothing when `handler` is its only
   * registration (held inline), else one list node, and no closure either way; on a platform
   * `AbortSignal` one listener. Undo it with `Cancellation.unwatch(watch, handler)` when the
   * work is done.
   */
  static watch(source: CancelSource, handler: AbortHandler): Watch {
    if (source instanceof Cancellation) {
      if (source.aborted) return noop;
      return source.#addFollower(handler);
    }
    return listen(source, (reason) => handler.handleAbort(reason));
  }

  /**
   * Removes what `watch(source, handler)` registered: give it the same `handler`. Idempotent
   * while `handler` has not watched the same source again.
   */
  static unwatch(watch: Watch, handler: AbortHandler): void {
    if (watch instanceof Cancellation) watch.#dropFirst(handler);
    else if (watch instanceof ListenerNode) {
      if (watch.owner !== undefined) watch.owner.#remove(watch);
    } else if (typeof watch === 'function') watch();
  }
}

/** Tells a follower (inline or on a list node) that its source aborted with `reason`. */
function tellFollower(follower: Cancellation | AbortHandler, reason: unknown): void {
  if (follower instanceof Cancellation) follower.abort(reason);
  else follower.handleAbort(reason);
}

/** Does nothing (the remover of a listener never added). */
export function noop(): void {}

/** Calls `listener` once `source` aborts; returns the remover. Not called when already aborted. */
export function listen(source: CancelSource, listener: (reason: unknown) => void): () => void {
  if (source instanceof Cancellation) return source.onAbort(listener);
  if (source.aborted) return noop;
  const onAbort = () => listener(source.reason);
  source.addEventListener('abort', onAbort, { once: true });
  return () => source.removeEventListener('abort', onAbort);
}
