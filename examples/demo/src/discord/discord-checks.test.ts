import type { Observation } from '@rt/core';
import type { FakeDiscordCall, FakeDiscordRest } from '@rt/testing/discord';
import { describe, expect, it } from 'vitest';
import { BotTally } from '../bot/bot-tally.js';
import type { Invariant } from '../summary/invariants.js';
import { checkDiscordInvariants, type DiscordCheckInput } from './discord-checks.js';
import type { DiscordItem } from './discord-plan.js';
import { DiscordRecord } from './discord-record.js';
import type { InteractionResult } from './interaction-client.js';

const BUSY = 'busy';

function answered(type: number, data: Record<string, unknown> = {}, latencyMs = 5) {
  const result: InteractionResult = {
    kind: 'response',
    status: 200,
    latencyMs,
    answer: {
      type,
      flags: typeof data.flags === 'number' ? data.flags : 0,
      content: typeof data.content === 'string' ? data.content : undefined,
      choices: Array.isArray(data.choices) ? data.choices : [],
    },
  };
  return result;
}

function call(route: FakeDiscordCall['route'], params: Record<string, string>, body: unknown) {
  return { route, method: 'POST', path: '/', params, query: {}, body, token: undefined, at: 0 };
}

function observe(tally: BotTally, type: string, shape: string, extra: Record<string, unknown>) {
  tally.observe({
    type,
    at: 0,
    event: { adapter: 'discord', tenant: 'g', id: 'x', shape },
    ...extra,
  } as unknown as Observation);
}

/**
 * A small finished Discord side that kept the contract: a mention answered and one told busy; an
 * `/ask` deferred then edited and one refused ephemerally; a click deferred then followed up; an
 * autocomplete answered with its choices.
 */
function goodRun() {
  const calls: FakeDiscordCall[] = [];
  const record = new DiscordRecord({ calls } as unknown as FakeDiscordRest, [BUSY]);
  const plan: DiscordItem[] = [
    { kind: 'message', id: 'm1', atMs: 0 },
    { kind: 'message', id: 'm2', atMs: 0 },
    { kind: 'command', id: 'c1', atMs: 0 },
    { kind: 'command', id: 'c2', atMs: 0 },
    { kind: 'click', id: 'k1', atMs: 0 },
    { kind: 'suggestion', id: 's1', atMs: 0 },
  ];
  const [m1, m2, c1, c2, k1, s1] = plan as [DiscordItem, ...DiscordItem[]];
  record.add(m1);
  record.add(m2!);
  record.recordResult(record.add(c1!, 't-c1'), answered(5));
  record.recordResult(record.add(c2!, 't-c2'), answered(4, { flags: 64, content: BUSY }));
  record.recordResult(record.add(k1!, 't-k1'), answered(6));
  record.recordResult(
    record.add(s1!, 't-s1'),
    answered(8, { choices: [{ name: 'a', value: 'a' }] }),
  );
  const reply = (id: string, content: string) =>
    call(
      'POST /channels/:channel/messages',
      { channel: 'ch' },
      {
        content,
        message_reference: { message_id: id },
      },
    );
  calls.push(reply('m1', 'Here is what I found'), reply('m2', BUSY));
  calls.push(
    call(
      'PATCH /webhooks/:application/:token/messages/:message',
      { token: 't-c1' },
      { content: 'answer' },
    ),
    call('POST /webhooks/:application/:token', { token: 't-k1' }, { content: 'Approved.' }),
  );
  record.poll();

  const tally = new BotTally();
  for (const shape of ['message', 'application_command', 'message_component', 'autocomplete']) {
    const mode = shape === 'autocomplete' ? 'sync' : 'deferred';
    observe(tally, 'dispatch_admitted', shape, { mode });
    observe(tally, 'dispatch_finished', shape, { mode, outcome: 'completed', durationMs: 1 });
  }
  for (const shape of ['message', 'application_command']) {
    observe(tally, 'dispatch_finished', shape, { mode: 'deferred', outcome: 'admission-rejected' });
  }
  Object.assign(tally.discordHandlers, { entered: 3, exited: 3, peak: 2 });
  const input: DiscordCheckInput = {
    plan,
    record,
    tally,
    gatewayCloses: [{ code: 1000, byClient: true }],
    identifies: 1,
  };
  return { input, calls, record };
}

function failedNames(invariants: readonly Invariant[]): string[] {
  return invariants.filter((i) => !i.passed).map((i) => i.name);
}

const FOLLOWED =
  'Discord: every refused interaction told busy, every accepted one followed up once';
const IN_TIME = "Discord: every interaction answered within Discord's 3 s";
const LEDGER = 'Discord: accepted = completed, refusals = busy shown, nothing handled twice';

describe('checkDiscordInvariants', () => {
  it('passes a finished Discord side that kept the contract', () => {
    const invariants = checkDiscordInvariants(goodRun().input);
    expect(invariants).toHaveLength(5);
    expect(failedNames(invariants)).toEqual([]);
  });

  it('finds an accepted /ask whose answer never reached Discord', () => {
    const { input, calls } = goodRun();
    calls.splice(2, 1);
    const fresh = new DiscordRecord({ calls } as unknown as FakeDiscordRest, [BUSY]);
    for (const outcome of input.record.outcomes.values()) {
      const copy = fresh.add(outcome.item, `t-${outcome.item.id}`);
      if (outcome.result !== undefined) fresh.recordResult(copy, outcome.result);
    }
    fresh.poll();
    expect(failedNames(checkDiscordInvariants({ ...input, record: fresh }))).toEqual([FOLLOWED]);
  });

  it('does not take a refusal without the ephemeral flag for a busy signal', () => {
    const { input, record } = goodRun();
    const c2 = record.outcomes.get('c2')!;
    c2.result = answered(4, { flags: 0, content: BUSY });
    expect(failedNames(checkDiscordInvariants(input))).toContain(FOLLOWED);
  });

  it('treats an interaction answered after 3 s as unanswered', () => {
    const { input, record } = goodRun();
    record.outcomes.get('c1')!.result = { kind: 'timeout', latencyMs: 3001 };
    expect(failedNames(checkDiscordInvariants(input))).toEqual([IN_TIME, FOLLOWED]);
  });

  it('finds a mention answered twice and a REST call no delivery owns', () => {
    const { input, calls, record } = goodRun();
    calls.push(
      call(
        'POST /channels/:channel/messages',
        { channel: 'ch' },
        {
          content: 'again',
          message_reference: { message_id: 'm1' },
        },
      ),
      call('POST /webhooks/:application/:token', { token: 'nobody' }, { content: 'x' }),
    );
    record.poll();
    expect(failedNames(checkDiscordInvariants(input))).toEqual([
      'Discord: every gateway mention answered once or told busy',
      LEDGER,
    ]);
  });

  it('fails the gateway line when the bot reconnected or closed abnormally', () => {
    const { input } = goodRun();
    const invariants = checkDiscordInvariants({
      ...input,
      identifies: 2,
      gatewayCloses: [{ code: 4000, byClient: false }],
    });
    expect(failedNames(invariants)).toEqual([
      'Discord: one gateway session, closed normally at shutdown',
    ]);
  });
});
