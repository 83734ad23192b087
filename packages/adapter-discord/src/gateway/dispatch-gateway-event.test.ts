import {
  AdmissionRejectedError,
  type DispatchResult,
  type FinishedDelivery,
  PreludeError,
  type RtEvent,
} from '@rt/core';
import { deferred } from '@rt/testing';
import { fakeRuntimeHandle } from '@rt/testing/adapter';
import { describe, expect, it } from 'vitest';
import { dispatchGatewayEvent, type GatewayDispatchDeps } from './dispatch-gateway-event.js';
import type { MessageRefusal, MessageRefusals } from './message-refusal.js';

const BUSY = 'busy text';
const UNAVAILABLE = 'unavailable text';

function message(shape = 'message_create'): RtEvent {
  return {
    adapter: 'discord',
    tenant: 'g1',
    id: 'm1',
    kind: shape === 'message_create' ? 'message' : 'reaction',
    shape,
    receivedAt: 0,
    payload:
      shape === 'message_create'
        ? { id: 'm1', channel_id: 'c1' }
        : { message_id: 'm0', channel_id: 'c1', user_id: 'u1' },
  };
}

function deps() {
  const started: MessageRefusal[] = [];
  const notices: { name: string; error?: unknown }[] = [];
  const d: GatewayDispatchDeps = {
    busyText: BUSY,
    unavailableText: UNAVAILABLE,
    refusals: { start: (r: MessageRefusal) => void started.push(r) } as unknown as MessageRefusals,
    notice: (name, _detail, error) => void notices.push({ name, error }),
  };
  return { d, started, notices };
}

const rejected = (reason: 'capacity' | 'tenant-capacity' | 'shutdown') => async () => {
  throw new AdmissionRejectedError(reason, 'discord', 'g1');
};

describe('dispatchGatewayEvent: the refusal of a gateway delivery', () => {
  it.each([
    ['capacity', rejected('capacity'), BUSY],
    ['the tenant ceiling', rejected('tenant-capacity'), BUSY],
    ['shutdown', rejected('shutdown'), UNAVAILABLE],
    [
      'a failed State',
      async () => {
        throw new PreludeError('State down');
      },
      UNAVAILABLE,
    ],
  ])('a message refused for %s gets a reply to it with the right text', async (_n, run, text) => {
    const { d, started, notices } = deps();
    await dispatchGatewayEvent(d, fakeRuntimeHandle(run), message());
    expect(started).toEqual([
      {
        event: expect.objectContaining({ id: 'm1' }),
        target: { channel: 'c1', messageId: 'm1' },
        text,
      },
    ]);
    expect(notices).toEqual([]);
  });

  it('a non-rt error is answered unavailable and observed as dispatch_error', async () => {
    const { d, started, notices } = deps();
    const bug = new Error('bug');
    await dispatchGatewayEvent(
      d,
      fakeRuntimeHandle(async () => {
        throw bug;
      }),
      message(),
    );
    expect(started.map((r) => r.text)).toEqual([UNAVAILABLE]);
    expect(notices).toEqual([{ name: 'dispatch_error', error: bug }]);
  });

  it('a refused reaction has nobody to tell: no signal, nothing thrown', async () => {
    const { d, started } = deps();
    await dispatchGatewayEvent(
      d,
      fakeRuntimeHandle(rejected('capacity')),
      message('message_reaction_add'),
    );
    expect(started).toEqual([]);
  });

  it('a message accepted and later dropped gets the busy signal; one that completes gets none', async () => {
    for (const [outcome, expected] of [
      ['dropped', [BUSY]],
      ['completed', []],
    ] as const) {
      const { d, started } = deps();
      const settled = deferred<FinishedDelivery>();
      const result: DispatchResult = { status: 'accepted', settled: settled.promise };
      await dispatchGatewayEvent(
        d,
        fakeRuntimeHandle(async () => result),
        message(),
      );
      expect(started).toEqual([]);
      settled.resolve({ outcome } as FinishedDelivery);
      await settled.promise;
      await Promise.resolve();
      expect(started.map((r) => r.text)).toEqual(expected);
    }
  });

  it('duplicates and unrouted messages are left alone', async () => {
    for (const status of ['duplicate', 'unrouted'] as const) {
      const { d, started, notices } = deps();
      await dispatchGatewayEvent(
        d,
        fakeRuntimeHandle(async () => ({ status })),
        message(),
      );
      expect([started, notices]).toEqual([[], []]);
    }
  });
});
