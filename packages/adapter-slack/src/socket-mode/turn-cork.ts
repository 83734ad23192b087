import type { Socket } from 'node:net';
import { runThisTurn, type TurnTask } from '@rt/core/adapter';

/**
 * Holds a socket's writes back until the end of the current event-loop turn, so the acks written
 * during one turn leave in one write (one system call, one wake-up of the peer) instead of one
 * each: the envelopes of one read are answered within the same turn. The socket is uncorked on
 * the turn's check phase through the kit's turn batch (the real `setImmediate`, and the process's
 * `exit`), or at once by `flush`; each cork it adds is taken back exactly once.
 */
export class TurnCork implements TurnTask<Socket, undefined, undefined> {
  /** The socket corked by this cork and not yet uncorked, if any. */
  #corked: Socket | undefined;

  /** Corks `socket` for the rest of this turn (a no-op when it already is, or there is none). */
  hold(socket: Socket | undefined): void {
    if (socket === undefined || socket === this.#corked || socket.destroyed) return;
    this.flush(); // another connection's socket, from earlier in the turn
    this.#corked = socket;
    socket.cork();
    runThisTurn(this, socket, undefined, undefined);
  }

  /** Lets what is held leave now (before the connection closes, say). */
  flush(): void {
    const socket = this.#corked;
    this.#corked = undefined;
    socket?.uncork();
  }

  /** @internal The turn ended: what it wrote leaves now, unless a `flush` let it go already. */
  run(socket: Socket): void {
    if (this.#corked === socket) this.flush();
  }
}
