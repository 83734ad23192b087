import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RtEvent } from '../event/event.js';
import { setup } from '../test-support/setup.js';
import { settledOf } from '../test-support/test-adapter.js';

describe('route helpers', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('give every event kind a helper that routes it by its own id', async () => {
    const { runtime, adapter } = setup();
    const seen: string[] = [];
    const note = (name: string) => () => void seen.push(name);
    runtime.onMention(note('mention'));
    runtime.onMessage('ping', note('message'));
    runtime.onCommand('/deploy', note('command'));
    runtime.onAction('approve', note('action'));
    runtime.onFormSubmit('ticket', note('form_submit'));
    runtime.onFormClose(note('form_close any'));
    runtime.onFormClose('ticket', note('form_close ticket'));
    runtime.onShortcut('new_ticket', note('shortcut'));
    runtime.onSuggestion('assignee', note('suggestion'));
    runtime.onReaction(note('reaction any'));
    runtime.onReaction('thumbsup', note('reaction thumbsup'));
    runtime.onEvent('team_join', note('raw'));
    const events: Partial<RtEvent>[] = [
      { kind: 'mention' },
      { kind: 'message', text: 'ping?' },
      { kind: 'command', command: 'deploy' },
      { kind: 'action', actionId: 'approve' },
      { kind: 'form_submit', formId: 'ticket' },
      { kind: 'form_close', formId: 'ticket' },
      { kind: 'shortcut', shortcutId: 'new_ticket' },
      { kind: 'suggestion', actionId: 'assignee' },
      { kind: 'reaction', type: 'reaction_added', text: 'thumbsup' },
      { kind: 'raw', type: 'team_join' },
    ];
    for (const event of events) await settledOf(await adapter.send(event));
    expect(seen).toEqual([
      'mention',
      'message',
      'command',
      'action',
      'form_submit',
      'form_close any',
      'form_close ticket',
      'shortcut',
      'suggestion',
      'reaction any',
      'reaction thumbsup',
      'raw',
    ]);
  });

  it('do not route a kind by another kind’s id', async () => {
    const { runtime, adapter } = setup();
    runtime.onShortcut('x', () => {});
    runtime.onFormSubmit('x', () => {});
    runtime.onSuggestion('x', () => {});
    await expect(adapter.send({ kind: 'action', actionId: 'x' })).resolves.toEqual({
      status: 'unrouted',
    });
    await expect(adapter.send({ kind: 'form_submit', shortcutId: 'x' })).resolves.toEqual({
      status: 'unrouted',
    });
  });

  it('reject a helper called with an id and no handler', () => {
    const { runtime } = setup();
    expect(() => runtime.onFormClose('ticket' as never)).toThrow(/needs a handler/);
    expect(() => runtime.onReaction('thumbsup' as never)).toThrow(/needs a handler/);
  });
});
