import { describe, expect, it } from 'vitest';
import { makeEvent } from '../test-support/test-adapter.js';
import type { Route } from './route.js';
import { Router } from './router.js';

const names = (router: Router, event: Parameters<Router['match']>[0]) =>
  router.match(event).map((handler) => handler.name);

describe('router', () => {
  it('matches every route kind on its own field', () => {
    const router = new Router();
    const routes: [string, Route][] = [
      ['mention', { kind: 'mention' }],
      ['anyMessage', { kind: 'message' }],
      ['helloText', { kind: 'message', text: 'hello' }],
      ['regexText', { kind: 'message', text: /^deploy\s+(\w+)/ }],
      ['deploy', { kind: 'command', name: '/deploy' }],
      ['approve', { kind: 'action', actionId: 'approve' }],
      ['anyVote', { kind: 'action', actionId: /^vote-/ }],
      ['modal', { kind: 'form_submit', formId: 'form' }],
      ['anyClose', { kind: 'form_close' }],
      ['closeForm', { kind: 'form_close', formId: 'form' }],
      ['newTicket', { kind: 'shortcut', shortcutId: 'new_ticket' }],
      ['pick', { kind: 'suggestion', actionId: 'pick' }],
      ['anyReaction', { kind: 'reaction' }],
      ['thumbs', { kind: 'reaction', name: 'thumbsup' }],
      ['reactionAdded', { kind: 'raw', type: 'reaction_added' }],
      ['slackOnly', { kind: 'mention', adapter: 'slack' }],
      ['predicate', (event) => event.user === 'U-boss'],
    ];
    for (const [name, route] of routes) {
      const handler = { [name]: () => {} }[name]!;
      router.add(route, handler);
    }
    expect(names(router, makeEvent({ kind: 'mention' }))).toEqual(['mention']);
    expect(names(router, makeEvent({ kind: 'mention', adapter: 'slack' }))).toEqual([
      'mention',
      'slackOnly',
    ]);
    expect(names(router, makeEvent({ kind: 'message', text: 'say hello' }))).toEqual([
      'anyMessage',
      'helloText',
    ]);
    expect(names(router, makeEvent({ kind: 'message', text: 'deploy api' }))).toEqual([
      'anyMessage',
      'regexText',
    ]);
    expect(names(router, makeEvent({ kind: 'command', command: 'deploy' }))).toEqual(['deploy']);
    expect(names(router, makeEvent({ kind: 'command', command: '/deploy' }))).toEqual(['deploy']);
    expect(names(router, makeEvent({ kind: 'action', actionId: 'vote-3' }))).toEqual(['anyVote']);
    expect(names(router, makeEvent({ kind: 'action', actionId: 'approve' }))).toEqual(['approve']);
    expect(names(router, makeEvent({ kind: 'form_submit', formId: 'form' }))).toEqual(['modal']);
    expect(names(router, makeEvent({ kind: 'form_close', formId: 'form' }))).toEqual([
      'anyClose',
      'closeForm',
    ]);
    expect(names(router, makeEvent({ kind: 'form_close', formId: 'other' }))).toEqual(['anyClose']);
    expect(names(router, makeEvent({ kind: 'shortcut', shortcutId: 'new_ticket' }))).toEqual([
      'newTicket',
    ]);
    expect(names(router, makeEvent({ kind: 'suggestion', actionId: 'pick' }))).toEqual(['pick']);
    expect(names(router, makeEvent({ kind: 'action', actionId: 'pick' }))).toEqual([]);
    expect(names(router, makeEvent({ kind: 'reaction', type: 'reaction_added' }))).toEqual([
      'anyReaction',
      'reactionAdded',
    ]);
    expect(
      names(router, makeEvent({ kind: 'reaction', type: 'reaction_added', text: 'thumbsup' })),
    ).toEqual(['anyReaction', 'thumbs', 'reactionAdded']);
    expect(names(router, makeEvent({ kind: 'shortcut', user: 'U-boss' }))).toEqual(['predicate']);
    expect(names(router, makeEvent({ kind: 'shortcut' }))).toEqual([]);
  });

  it('does not let a global RegExp remember its last match between events', () => {
    const router = new Router();
    router.add({ kind: 'message', text: /ping/g }, function ping() {});
    expect(names(router, makeEvent({ text: 'ping' }))).toEqual(['ping']);
    expect(names(router, makeEvent({ text: 'ping' }))).toEqual(['ping']);
  });

  it('treats a throwing predicate as no match', () => {
    const router = new Router();
    router.add(
      () => {
        throw new Error('bad predicate');
      },
      () => {},
    );
    expect(router.match(makeEvent())).toEqual([]);
  });

  it('unregisters a handler', () => {
    const router = new Router();
    const off = router.add({ kind: 'message' }, () => {});
    off();
    off();
    expect(router.match(makeEvent())).toEqual([]);
  });

  it('rejects malformed routes at registration', () => {
    const router = new Router();
    expect(() => router.add({ kind: 'command', name: '' }, () => {})).toThrow(/non-empty name/);
    expect(() => router.add({ kind: 'action' } as Route, () => {})).toThrow(/actionId/);
    expect(() => router.add({ kind: 'form_submit' } as Route, () => {})).toThrow(/formId/);
    expect(() => router.add({ kind: 'shortcut' } as Route, () => {})).toThrow(/shortcutId/);
    expect(() => router.add({ kind: 'nope' } as unknown as Route, () => {})).toThrow(
      /unknown route kind/,
    );
    expect(() => router.add({ kind: 'mention' }, 'x' as never)).toThrow(
      /handler must be a function/,
    );
  });

  it('returns one shared list for events a single registration selects, a fresh one for several', () => {
    const router = new Router();
    const mention = () => {};
    const anyMessage = () => {};
    const hello = () => {};
    router.add({ kind: 'mention' }, mention);
    router.add({ kind: 'message' }, anyMessage);
    const remove = router.add({ kind: 'message', text: 'hello' }, hello);
    const first = router.match(makeEvent({ kind: 'mention', id: 'a' }));
    const second = router.match(makeEvent({ kind: 'mention', id: 'b' }));
    expect(first).toEqual([mention]);
    expect(second).toBe(first);
    expect(router.match(makeEvent({ kind: 'message', text: 'hello' }))).toEqual([
      anyMessage,
      hello,
    ]);
    expect(router.match(makeEvent({ kind: 'reaction' }))).toEqual([]);
    remove();
    expect(router.match(makeEvent({ kind: 'message', text: 'hello' }))).toEqual([anyMessage]);
  });
});
