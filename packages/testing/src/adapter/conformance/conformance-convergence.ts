/**
 * Shutdown under continuous traffic (docs/contract.md §7): the adapter's `stop()` and `drain()` wait for what
 * was in flight when they began, not for work that keeps arriving, so shutdown ends without
 * either step hitting its budget.
 */
import type { Observation } from '@rt/core';
import { expect, it } from 'vitest';
import type { AdapterConformanceOptions, ConformanceBot } from './conformance-options.js';
import type { DefineTest, Sessions } from './conformance-session.js';

/** How many clients keep sending during shutdown. */
const CLIENTS = 8;
/** Refusals seen during shutdown before the suite lets its held handler finish. */
const REFUSALS_BEFORE_RELEASE = 2 * CLIENTS;
/** The budget notices `settleAdapters` emits when a step does not converge. */
const TIMEOUT_NOTICES: ReadonlySet<string> = new Set(['stop_timed_out', 'drain_timed_out']);

const isShutdownRefusal = (o: Observation) =>
  o.type === 'admission_rejected' && o.reason === 'shutdown';

/** Once per adapter: shutdown converges while clients keep sending every shape. */
export function defineConvergenceTests<P, B extends ConformanceBot>(
  sessions: Sessions,
  options: AdapterConformanceOptions<P, B>,
  test: DefineTest = it,
): void {
  test('converges in stop() and drain() while clients keep sending during shutdown (no stop or drain timeout)', async () => {
    const session = await sessions.open();
    const { runtime } = session.bot;
    let sending = true;
    const failures: unknown[] = [];
    const client = async (first: number) => {
      for (let next = first; sending; next += 1) {
        const shape = options.shapes[next % options.shapes.length]!;
        try {
          await session.send(shape.payload(session.bot as B), 'valid');
        } catch (error) {
          failures.push(error);
          return;
        }
        // One macrotask per request, so timers and sockets get their turn as with real clients.
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const release = await session.hold();
    const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));
    await session.until(
      () => session.observations.filter((o) => o.type === 'dispatch_finished').length >= CLIENTS,
    );

    // A running handler keeps shutdown open until traffic has met the closed admission.
    const stopping = runtime.shutdown({ graceMs: 1_000, abandonAfterMs: 500 });
    await session.until(
      () => session.observations.filter(isShutdownRefusal).length >= REFUSALS_BEFORE_RELEASE,
    );
    await release();
    await stopping;
    const refusedDuringShutdown = session.observations.filter(isShutdownRefusal).length;
    sending = false;
    await Promise.all(clients);

    expect(failures).toEqual([]);
    expect(refusedDuringShutdown).toBeGreaterThanOrEqual(REFUSALS_BEFORE_RELEASE);
    const notices = session.observations.flatMap((o) =>
      o.type === 'adapter_notice' && TIMEOUT_NOTICES.has(o.name) ? [o.name] : [],
    );
    expect(notices, 'stop/drain budget notices').toEqual([]);
    const stats = runtime.stats();
    expect(stats.detachedInFlight).toBe(0);
  });
}
