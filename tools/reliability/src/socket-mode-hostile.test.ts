import {
  buildAppMentionEvent,
  buildBlockActions,
  buildSlashCommand,
  type FakeSocketMode,
  startFakeSocketMode,
} from '@rt/testing/slack';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { deferred } from './support/deferred.js';
import { recordFigures, sized } from './support/figures.js';
import { BED_SECRET, BED_TOKEN, type SlackBed, startSlackBed } from './support/slack-bed.js';

const APP_TOKEN = 'xapp-1-reliability-hostile-token-9d3f1b';

describe('hostile Socket Mode envelopes', () => {
  let bed: SlackBed | undefined;
  let fake: FakeSocketMode | undefined;
  afterEach(async () => {
    await bed?.close();
    await fake?.close();
    bed = fake = undefined;
  });

  it('never crash the client or the runtime, never drop the connection, and leave the next real event handled', async () => {
    fake = await startFakeSocketMode({ redeliverAfterMs: false });
    bed = await startSlackBed({
      adapter: {
        socketMode: {
          appToken: APP_TOKEN,
          apiUrl: fake.apiUrl,
          reconnectMinDelayMs: 10,
          reconnectMaxDelayMs: 50,
        },
      },
      runtime: { concurrency: 'concurrent' },
    });
    const sentinel = deferred();
    let handled = 0;
    bed.runtime.on(
      () => true,
      (ctx) => {
        handled += 1;
        if (ctx.event.id === 'EvSENTINEL') sentinel.resolve();
      },
    );
    await bed.runtime.start();
    await fake.waitForConnection(1);
    const f = fake;
    const payloadOf = fc.oneof(
      fc.dictionary(fc.string(), fc.jsonValue()),
      // Events API bodies with hostile inner parts, including no inner event (app_rate_limited).
      fc.record(
        {
          type: fc.constantFrom('event_callback', 'app_rate_limited', 'url_verification', 'x'),
          event_id: fc.oneof(fc.string(), fc.jsonValue()),
          team_id: fc.jsonValue(),
          event: fc.option(fc.jsonValue(), { nil: undefined }),
          authorizations: fc.jsonValue(),
        },
        { requiredKeys: ['type'] },
      ),
      fc.record({
        command: fc.oneof(fc.string(), fc.jsonValue()),
        team_id: fc.jsonValue(),
        trigger_id: fc.jsonValue(),
        text: fc.jsonValue(),
      }),
      fc.record({
        type: fc.constantFrom(
          'block_actions',
          'view_submission',
          'view_closed',
          'shortcut',
          'block_suggestion',
          'message_action',
          'x',
        ),
        team: fc.jsonValue(),
        view: fc.jsonValue(),
        actions: fc.jsonValue(),
        trigger_id: fc.jsonValue(),
      }),
    );
    // Real payloads with one top-level field replaced by any JSON value or removed.
    const seeds = [
      { type: 'events_api' as const, data: buildAppMentionEvent().data },
      { type: 'slash_commands' as const, data: buildSlashCommand({ command: '/rt' }).data },
      { type: 'interactive' as const, data: buildBlockActions({ actionId: 'approve' }).data },
    ];
    const mutated = fc
      .tuple(fc.constantFrom(...seeds), fc.nat(), fc.option(fc.jsonValue(), { nil: undefined }))
      .map(([seed, pick, value]) => {
        const payload: Record<string, unknown> = { ...seed.data };
        const key = Object.keys(payload)[pick % Object.keys(payload).length]!;
        if (value === undefined) delete payload[key];
        else payload[key] = value;
        return { type: seed.type, payload };
      });
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { arbitrary: mutated, weight: 3 },
          {
            arbitrary: fc.record({
              type: fc.constantFrom(
                'events_api' as const,
                'slash_commands' as const,
                'interactive' as const,
              ),
              payload: payloadOf,
            }),
            weight: 1,
          },
        ),
        async (envelope) => {
          tried += 1;
          f.send({ type: envelope.type, payload: envelope.payload as Record<string, unknown> });
        },
      ),
      { numRuns: sized(200, 3000) },
    );
    f.send(buildAppMentionEvent({ eventId: 'EvSENTINEL' }));
    await sentinel.promise;
    // Refused envelopes are reported (`envelope_invalid`, `app_rate_limited`); none crashed anything.
    const reported = bed.log.observations.filter(
      (o) =>
        o.type === 'adapter_notice' &&
        (o.name === 'envelope_invalid' || o.name === 'app_rate_limited'),
    ).length;
    expect(reported).toBeGreaterThan(0);
    // Field-mutated real envelopes were still well-formed often enough: the parser was reached.
    expect(bed.runtime.stats().received).toBeGreaterThan(1);
    expect(f.connections).toHaveLength(1);
    expect(f.openConnections()).toHaveLength(1);
    expect(bed.listenerErrors).toEqual([]);
    await bed.runtime.shutdown({ graceMs: 1000 });
    expect(bed.runtime.stats().detachedInFlight).toBe(0);
    expect(bed.log.leaks([BED_SECRET, BED_TOKEN, APP_TOKEN])).toEqual([]);
    recordFigures('socket-mode-hostile', {
      envelopesTried: tried,
      reportedInvalid: reported,
      dispatched: bed.runtime.stats().received,
      handled,
    });
  });
});
