import { describe, expect, it } from 'vitest';
import type { RtEvent } from '../event/event.js';
import { setup } from '../test-support/setup.js';
import { settledOf } from '../test-support/test-adapter.js';

/** Sends an event and, when accepted, waits for its outcome. */
async function deliver(send: () => Promise<unknown>): Promise<void> {
  const result = (await send()) as Parameters<typeof settledOf>[0];
  if (result.status === 'accepted') await settledOf(result);
}

describe('onDirectMessage', () => {
  it('routes messages of direct conversations only', async () => {
    const { runtime, adapter } = setup();
    const seen: string[] = [];
    runtime.onDirectMessage((ctx) => void seen.push(ctx.event.id));
    await deliver(() => adapter.send({ id: 'dm', kind: 'message', direct: true }));
    await expect(adapter.send({ id: 'channel', kind: 'message' })).resolves.toEqual({
      status: 'unrouted',
    });
    await expect(
      adapter.send({ id: 'not-direct', kind: 'message', direct: false }),
    ).resolves.toEqual({ status: 'unrouted' });
    await expect(adapter.send({ id: 'reaction', kind: 'reaction', direct: true })).resolves.toEqual(
      { status: 'unrouted' },
    );
    expect(seen).toEqual(['dm']);
  });

  it('runs beside onMessage in one delivery: one message, one run of each handler', async () => {
    const { runtime, adapter, ofType } = setup();
    const seen: string[] = [];
    runtime.onMessage(() => void seen.push('message'));
    runtime.onDirectMessage(() => void seen.push('direct'));
    await deliver(() => adapter.send({ kind: 'message', direct: true }));
    await deliver(() => adapter.send({ kind: 'message' }));
    expect(seen).toEqual(['message', 'direct', 'message']);
    expect(ofType('dispatch_finished').map((o) => o.outcome)).toEqual(['completed', 'completed']);
  });

  it('leaves a direct message that mentions the bot to onMention, else takes it', async () => {
    const mention: Partial<RtEvent> = { kind: 'mention', fallbackKind: 'message', direct: true };
    const withMention = setup();
    const seen: string[] = [];
    withMention.runtime.onMention(() => void seen.push('mention'));
    withMention.runtime.onDirectMessage(() => void seen.push('direct'));
    await deliver(() => withMention.adapter.send(mention));
    expect(seen).toEqual(['mention']);

    const withoutMention = setup();
    withoutMention.runtime.onDirectMessage((ctx) => void seen.push(`direct as ${ctx.event.kind}`));
    await deliver(() => withoutMention.adapter.send(mention));
    expect(seen).toEqual(['mention', 'direct as message']);
  });

  it('filters message and mention routes by conversation with `direct`', async () => {
    const { runtime, adapter } = setup();
    const seen: string[] = [];
    runtime.on(
      { kind: 'mention', direct: false },
      (ctx) => void seen.push(`channel ${ctx.event.id}`),
    );
    runtime.on(
      { kind: 'message', direct: true, text: 'help' },
      (ctx) => void seen.push(`dm ${ctx.event.id}`),
    );
    await deliver(() => adapter.send({ id: 'm1', kind: 'mention' }));
    await deliver(() => adapter.send({ id: 'm2', kind: 'mention', direct: true }));
    await deliver(() => adapter.send({ id: 'd1', kind: 'message', direct: true, text: 'help me' }));
    await deliver(() => adapter.send({ id: 'd2', kind: 'message', direct: true, text: 'hi' }));
    expect(seen).toEqual(['channel m1', 'dm d1']);
  });

  it('rejects a non-boolean `direct` on a route and on an event', async () => {
    const { runtime, adapter } = setup();
    expect(() => runtime.on({ kind: 'message', direct: 'yes' as never }, () => {})).toThrow(
      /direct to be a boolean/,
    );
    runtime.onDirectMessage(() => {});
    await expect(adapter.send({ direct: 1 as never })).rejects.toMatchObject({
      code: 'RT_INVALID_EVENT',
    });
  });
});
