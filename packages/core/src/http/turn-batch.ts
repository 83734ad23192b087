/**
 * Work gathered during one turn of the event loop and run together at the end of it, on the
 * turn's check phase: one `setImmediate` per turn, not per item. The native listener writes its
 * answers through it, so that a peer waiting on many connections (Slack's edge, a load
 * generator) is woken once by the turn's answers rather than once per answer: when the server is
 * the busy side, each wake-up of a sleeping peer is paid inside the server's `write` (ADR 0017).
 */

/** One kind of batched work: `run` is called with what `runThisTurn` was given. Must not throw. */
export interface TurnTask<A, B, C> {
  run(a: A, b: B, c: C): void;
}

/**
 * The real `setImmediate`, read once at load: what the batch runs is I/O (answers to clients
 * already waiting), which fake timers in a test must not hold back.
 */
const immediate = setImmediate;

/** `[task, a, b, c]` per item, in the order added. */
let queue: unknown[] = [];
let hookedExit = false;

/**
 * Runs `task.run(a, b, c)` at the end of this turn of the event loop (its check phase), after
 * every item added before it in the turn. Items added while the batch runs go to the next turn.
 * What is still queued when the process exits (`process.exit()` before the turn ended) runs in
 * its `exit` event, so no answer ready by then is dropped unwritten.
 */
export function runThisTurn<A, B, C>(task: TurnTask<A, B, C>, a: A, b: B, c: C): void {
  if (queue.length === 0) {
    immediate(runQueuedNow);
    if (!hookedExit) {
      hookedExit = true;
      process.on('exit', runQueuedNow);
    }
  }
  queue.push(task, a, b, c);
}

/**
 * Runs every queued item now, in order (what the turn's immediate and the `exit` hook call); one
 * that throws (a bug: tasks must not) does not stop the others, and the first error is rethrown
 * once all ran.
 */
export function runQueuedNow(): void {
  const items = queue;
  queue = [];
  let failure: { error: unknown } | undefined;
  for (let index = 0; index < items.length; index += 4) {
    const task = items[index] as TurnTask<unknown, unknown, unknown>;
    try {
      task.run(items[index + 1], items[index + 2], items[index + 3]);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure !== undefined) throw failure.error;
}
