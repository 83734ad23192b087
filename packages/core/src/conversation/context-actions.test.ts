import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PostedMessage } from '../adapter/adapter.js';
import { UnsupportedActionError } from '../errors.js';
import type { RtEvent } from '../event/event.js';
import { setup } from '../test-support/setup.js';
import {
  createTestAdapter,
  deferred,
  settledOf,
  type TestAdapter,
  type TestAdapterOptions,
} from '../test-support/test-adapter.js';
import type { ActionCallOptions, ConversationActions } from './actions.js';
import { card, section } from './card.js';
import { form, formErrors, textField } from './form.js';

interface Call {
  readonly action: string;
  readonly args: readonly unknown[];
  readonly signal: AbortSignal;
}

/** A test adapter with conversation actions that record each call and its signal. */
interface ActingAdapter extends TestAdapter {
  readonly calls: Call[];
  /** While set, every action waits for it (or for its signal to abort). */
  gate: Promise<void> | undefined;
  readonly actions: ConversationActions;
}

function actingAdapter(options: TestAdapterOptions = {}): ActingAdapter {
  const calls: Call[] = [];
  const record =
    (action: string) =>
    async (_event: RtEvent, ...rest: unknown[]): Promise<PostedMessage> => {
      const options = rest.at(-1) as ActionCallOptions;
      calls.push({ action, args: rest.slice(0, -1), signal: options.signal });
      if (acting.gate !== undefined) {
        await new Promise<void>((resolve, reject) => {
          options.signal.addEventListener('abort', () => reject(options.signal.reason), {
            once: true,
          });
          acting.gate?.then(resolve);
        });
      }
      return { channel: 'C1', id: `${action}-${calls.length}` };
    };
  const actions: ConversationActions = {
    reply: record('reply'),
    post: record('post'),
    edit: record('edit'),
    delete: record('delete') as never,
    react: record('react') as never,
    unreact: record('unreact') as never,
    ephemeral: record('ephemeral') as never,
    typing: record('typing') as never,
    openForm: async () => {
      throw new UnsupportedActionError('openForm', 'acting', 'no trigger');
    },
    dm: record('dm'),
    showFormErrors: record('showFormErrors') as never,
  };
  const acting: ActingAdapter = Object.assign(createTestAdapter({ name: 'acting', ...options }), {
    calls,
    gate: undefined as Promise<void> | undefined,
    actions,
  });
  return acting;
}

describe('conversation actions on the handler context', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("binds every action to the handler's signal and observes each with its outcome", async () => {
    const adapter = actingAdapter();
    const { runtime, ofType } = setup({ adapters: [adapter] });
    const posted: PostedMessage = { channel: 'C1', id: 'm1' };
    const message = card({ title: 'Hi' }, section('there'));
    let handlerSignal: AbortSignal | undefined;
    runtime.onMessage(async (ctx) => {
      handlerSignal = ctx.signal;
      await ctx.reply('hello');
      await ctx.post(message, { channel: 'C2', thread: 't1' });
      await ctx.edit(posted, 'edited');
      await ctx.delete(posted);
      await ctx.react('👀');
      await ctx.unreact(':eyes:', posted);
      await ctx.ephemeral('psst', { user: 'U2' });
      await ctx.typing();
      await ctx.dm('U3', 'direct');
      await ctx
        .openForm(form({ id: 'f', title: 'F', fields: [textField('a', 'A')] }))
        .catch(() => {});
    });
    await settledOf(await adapter.send({}));
    expect(adapter.calls.map((c) => c.action)).toEqual([
      'reply',
      'post',
      'edit',
      'delete',
      'react',
      'unreact',
      'ephemeral',
      'typing',
      'dm',
    ]);
    for (const call of adapter.calls) expect(call.signal).toBe(handlerSignal);
    expect(adapter.calls[1]?.args).toEqual([message]);
    expect(adapter.calls[6]?.args).toEqual(['psst']);
    const observed = ofType('conversation_action');
    expect(observed.map((o) => `${o.action}:${o.outcome}`)).toEqual([
      'reply:ok',
      'post:ok',
      'edit:ok',
      'delete:ok',
      'react:ok',
      'unreact:ok',
      'ephemeral:ok',
      'typing:ok',
      'dm:ok',
      'openForm:unsupported',
    ]);
    expect(observed[0]?.event.adapter).toBe('acting');
  });

  it('passes the target options through without the signal', async () => {
    const adapter = actingAdapter();
    const seen: unknown[] = [];
    adapter.actions.post = async (_event, _message, options) => {
      seen.push({ ...options, signal: undefined });
      return { channel: 'C2', id: 'p' };
    };
    const { runtime } = setup({ adapters: [adapter] });
    runtime.onMessage((ctx) => ctx.post('x', { channel: 'C2', thread: 't1' }));
    await settledOf(await adapter.send({}));
    expect(seen).toEqual([{ channel: 'C2', thread: 't1', signal: undefined }]);
  });

  it('uses a signal the call passes instead of the handler’s', async () => {
    const adapter = actingAdapter();
    const { runtime } = setup({ adapters: [adapter] });
    const own = new AbortController();
    runtime.onMessage((ctx) => ctx.typing({ signal: own.signal }));
    await settledOf(await adapter.send({}));
    expect(adapter.calls[0]?.signal).toBe(own.signal);
  });

  it('cancels an action in flight when the handler is cancelled and observes it aborted', async () => {
    const adapter = actingAdapter();
    adapter.gate = new Promise<void>(() => {});
    const { runtime, ofType } = setup({ adapters: [adapter], detachTimeoutMs: 1000 });
    let rejected: unknown;
    runtime.onMessage(async (ctx) => {
      await ctx.post('slow').catch((error: unknown) => {
        rejected = error;
      });
    });
    const result = await adapter.send({});
    await vi.advanceTimersByTimeAsync(1000);
    const finished = await settledOf(result);
    expect(finished.outcome).toBe('timed-out');
    expect((rejected as { code?: string }).code).toBe('RT_DETACH_TIMEOUT');
    expect(ofType('conversation_action').map((o) => o.outcome)).toEqual(['aborted']);
  });

  it('falls back to Adapter.reply for text when the adapter has no actions, and refuses the rest', async () => {
    const { runtime, adapter, ofType } = setup();
    const errors: unknown[] = [];
    runtime.onMessage(async (ctx) => {
      await ctx.reply('plain');
      await ctx.reply({ text: 'raw', extra: { x: 1 } });
      await ctx.reply(card({ title: 'no' })).catch((e: unknown) => errors.push(e));
      await ctx.react('👀').catch((e: unknown) => errors.push(e));
    });
    await settledOf(await adapter.send({}));
    expect(adapter.posted.map(({ text, extra }) => (extra ? { text, extra } : { text }))).toEqual([
      { text: 'plain' },
      { text: 'raw', extra: { x: 1 } },
    ]);
    expect(errors.map((e) => (e as UnsupportedActionError).action)).toEqual(['reply', 'react']);
    expect(errors[1]).toBeInstanceOf(UnsupportedActionError);
    expect(ofType('conversation_action').map((o) => o.outcome)).toEqual([
      'ok',
      'ok',
      'unsupported',
      'unsupported',
    ]);
  });

  it('hands a deferred form submit’s returned errors to the adapter, a sync one’s to the answer', async () => {
    const adapter = actingAdapter({ shapeModes: { sync_form: 'sync' } });
    const { runtime } = setup({ adapters: [adapter] });
    const errors = formErrors({ name: 'required' });
    runtime.onFormSubmit('f', () => errors);
    await settledOf(await adapter.send({ kind: 'form_submit', shape: 'form', formId: 'f' }));
    expect(adapter.calls.map((c) => [c.action, c.args[0]])).toEqual([['showFormErrors', errors]]);
    const sync = await adapter.send({ kind: 'form_submit', shape: 'sync_form', formId: 'f' });
    expect(sync).toMatchObject({ status: 'completed', response: errors });
    expect(adapter.calls).toHaveLength(1);
  });

  it('lets reply be destructured', async () => {
    const adapter = actingAdapter();
    const { runtime } = setup({ adapters: [adapter] });
    const done = deferred();
    runtime.onMessage(async ({ reply }) => {
      await reply('ok');
      done.resolve();
    });
    await adapter.send({});
    await done.promise;
    expect(adapter.calls.map((c) => c.action)).toEqual(['reply']);
  });
});
