import type { FakeEnvelope, FakeSocketConnection, FakeSocketMode } from '@rt/testing/slack';

/** Like Slack spreading envelopes over an app's connections: round robin over the open ones. */
export class Spreader {
  readonly #fake: FakeSocketMode;
  #next = 0;

  constructor(fake: FakeSocketMode) {
    this.#fake = fake;
  }

  /**
   * Sends on `to` when given (and open), else round robin over the open connections. Returns the
   * envelope, or `undefined` when no connection was open (nothing was sent).
   */
  send(
    payload: Parameters<FakeSocketMode['send']>[0],
    to?: FakeSocketConnection,
  ): FakeEnvelope | undefined {
    if (to?.open === true) return this.#fake.send(payload, { to });
    for (let tries = 0; tries < 3; tries += 1) {
      const open: FakeSocketConnection[] = this.#fake.openConnections();
      if (open.length === 0) return undefined;
      const next = open[this.#next % open.length]!;
      this.#next += 1;
      try {
        return this.#fake.send(payload, { to: next });
      } catch {
        // It closed between the check and the send: try the next one.
      }
    }
    return undefined;
  }
}
