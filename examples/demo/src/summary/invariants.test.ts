import type { DeliveryResult } from '@rt/testing/slack';
import { describe, expect, it } from 'vitest';
import { BotTally } from '../bot/bot-tally.js';
import { DEFAULT_DEMO_CONFIG, type DemoConfig } from '../config/demo-config.js';
import type { Snapshot } from '../metrics.js';
import { SimulatorLedger } from '../simulator/ledger.js';
import { checkInvariants, type Invariant, type InvariantInput } from './invariants.js';

const BUSY = 'busy';

function response(status: number, latencyMs = 5, body = ''): DeliveryResult {
  return { kind: 'response', status, body, contentType: 'text/plain', noRetry: false, latencyMs };
}

/**
 * A small finished run that satisfies the contract: two events (one refused once, then admitted
 * on retry #1), one answered `/ask`, one refused click that got the busy text.
 */
function goodRun() {
  const config: DemoConfig = {
    ...DEFAULT_DEMO_CONFIG,
    events: 2,
    commands: 1,
    clicks: 1,
    maxDetached: 2,
  };
  const ledger = new SimulatorLedger();
  const ev1 = ledger.addEvent('Ev1', 'C:1.1');
  ledger.recordAttempt(ev1, 0, response(200));
  const ev2 = ledger.addEvent('Ev2', 'C:2.2');
  ledger.recordAttempt(ev2, 0, response(503));
  ledger.markAwaitingRetry(ev2);
  ledger.recordAttempt(ev2, 1, response(200));
  ledger.recordMessage('C', '1.1');
  ledger.recordMessage('C', '2.2');
  const cmd = ledger.addInvocation('cmd.1', 'command', 'http://127.0.0.1/response/1');
  ledger.recordInvocationAck(cmd, response(200));
  ledger.recordResponsePost('/response/1', 'Answer to /ask');
  const clk = ledger.addInvocation('clk.1', 'click', 'http://127.0.0.1/response/2');
  ledger.recordInvocationAck(clk, response(200));
  ledger.recordResponsePost('/response/2', BUSY);

  const tally = new BotTally();
  tally.recordHandled('event', 'Ev1');
  tally.recordHandled('event', 'Ev2');
  tally.recordHandled('command', 'cmd.1');
  tally.rejectedByShape.set('event_callback', 1);
  tally.rejectedByShape.set('block_actions', 1);
  Object.assign(tally.handlers, { entered: 3, exited: 3, peak: 2 });
  Object.assign(tally.allHandlers, { entered: 3, exited: 3, peak: 2 });
  Object.assign(tally, { peakAtAdmission: 2, peakAtObservation: 2, admissionsProbed: 3 });

  const final = {
    sim: ledger.counters,
    busyShown: { commands: 0, clicks: 1 },
    lateBusy: { commands: 0, unknown: 0 },
    peakSampled: 2,
    samples: 10,
    peakHeapUsedBytes: 10 * 1_048_576,
    peakRssBytes: 50 * 1_048_576,
  } as unknown as Snapshot;
  const input: InvariantInput = {
    config,
    ledger,
    tally,
    outcomes: { completed: 3, 'admission-rejected': 2 },
    accepted: 3,
    final,
    busyText: BUSY,
  };
  return { input, ledger, tally, ev1, ev2 };
}

function failedNames(invariants: readonly Invariant[]): string[] {
  return invariants.filter((i) => !i.passed).map((i) => i.name);
}

function byName(invariants: readonly Invariant[], name: string): Invariant {
  const found = invariants.find((i) => i.name === name);
  if (found === undefined) throw new Error(`no invariant ${name}`);
  return found;
}

const ONCE = 'every event handled exactly once or still owed a retry';
const WHOLE = 'the whole plan ran to the end';
const LOST = 'nothing acknowledged and lost';

describe('checkInvariants', () => {
  it('passes a finished run that kept the contract', () => {
    const invariants = checkInvariants(goodRun().input);
    expect(invariants).toHaveLength(9);
    expect(failedNames(invariants)).toEqual([]);
  });

  it('fails a run that stopped early, even when everything sent was handled', () => {
    const { input } = goodRun();
    const invariants = checkInvariants({ ...input, stoppedEarly: 'time cap of 3.0 s reached' });
    expect(failedNames(invariants)).toEqual([WHOLE]);
    expect(byName(invariants, WHOLE).detail).toContain('STOPPED EARLY: time cap of 3.0 s reached');
  });

  it('counts planned events that were never sent against config.events', () => {
    const { input } = goodRun();
    const invariants = checkInvariants({ ...input, config: { ...input.config, events: 3 } });
    expect(failedNames(invariants)).toEqual([WHOLE, ONCE]);
    expect(byName(invariants, ONCE).detail).toContain('2/3 handled once');
    expect(byName(invariants, ONCE).detail).toContain('1 never sent');
  });

  it('does not count a retry cancelled by a stop as owed', () => {
    const { input, ledger } = goodRun();
    const ev3 = ledger.addEvent('Ev3', 'C:3.3');
    ledger.recordAttempt(ev3, 0, response(503));
    ledger.markAwaitingRetry(ev3);
    ledger.markRetryCancelled(ev3);
    const invariants = checkInvariants({ ...input, config: { ...input.config, events: 3 } });
    expect(byName(invariants, ONCE).passed).toBe(false);
    expect(byName(invariants, ONCE).detail).toContain('0 still owed a scheduled retry');
    expect(byName(invariants, ONCE).detail).toContain('1 retries cancelled by a stop');
    expect(byName(invariants, WHOLE).passed).toBe(false);
  });

  it('counts an event whose retry Slack still holds as owed, but not the run as finished', () => {
    const { input, ledger } = goodRun();
    const ev3 = ledger.addEvent('Ev3', 'C:3.3');
    ledger.recordAttempt(ev3, 0, response(503));
    ledger.markAwaitingRetry(ev3);
    const invariants = checkInvariants({ ...input, config: { ...input.config, events: 3 } });
    expect(byName(invariants, ONCE).passed).toBe(true);
    expect(byName(invariants, ONCE).detail).toContain('1 still owed a scheduled retry');
    expect(byName(invariants, WHOLE).passed).toBe(false);
  });

  it("finds an acknowledged event lost by the Web API's record, whatever the bot says", () => {
    const { input, ledger } = goodRun();
    const ev3 = ledger.addEvent('Ev3', 'C:3.3');
    ledger.recordAttempt(ev3, 0, response(200));
    input.tally.recordHandled('event', 'Ev3'); // the bot claims it, no reply ever reached Slack
    const invariants = checkInvariants({ ...input, config: { ...input.config, events: 3 } });
    expect(failedNames(invariants)).toContain(LOST);
    expect(byName(invariants, LOST).detail).toContain(
      '3 events acked with 2xx, 1 without exactly one',
    );
    expect(byName(invariants, ONCE).passed).toBe(false);
  });

  it('finds an accepted /ask that never got anything at its response_url', () => {
    const { input, ledger } = goodRun();
    const cmd = ledger.addInvocation('cmd.2', 'command', 'http://127.0.0.1/response/3');
    ledger.recordInvocationAck(cmd, response(200));
    const invariants = checkInvariants({ ...input, config: { ...input.config, commands: 2 } });
    expect(byName(invariants, LOST).passed).toBe(false);
    expect(
      byName(invariants, 'every /ask and click got an answer or a visible busy signal').passed,
    ).toBe(false);
  });

  it('fails when the runtime accounting and the handlers wrapper disagree', () => {
    const { input } = goodRun();
    Object.assign(input.tally.handlers, { entered: 4, exited: 3 });
    expect(byName(checkInvariants(input), LOST).passed).toBe(false);
  });

  it('finds two replies in one thread', () => {
    const { input, ledger } = goodRun();
    ledger.recordMessage('C', '1.1');
    expect(failedNames(checkInvariants(input))).toEqual([ONCE, LOST, 'no event handled twice']);
  });

  it('treats an acknowledgement slower than 3 s as a failure', () => {
    const { input, ledger, ev1 } = goodRun();
    ev1.attempts[0] = { attempt: 0, result: response(200, 3001) };
    const invariants = checkInvariants({ ...input, ledger });
    expect(failedNames(invariants)).toEqual(["every delivery answered within Slack's 3 s"]);
  });

  it('fails the bound on the handlers own count even when the runtime reports it kept', () => {
    const { input } = goodRun();
    input.tally.allHandlers.peak = 3;
    const bound = byName(checkInvariants(input), 'the admission bound was never exceeded');
    expect(bound.passed).toBe(false);
    expect(bound.detail).toContain(
      'handlers running at once, both platforms (their own wrapper) peak 3/2',
    );
  });

  it('fails the honest-rejection line on a busy post nobody owns', () => {
    const { input } = goodRun();
    const final = { ...input.final, lateBusy: { commands: 0, unknown: 1 } };
    expect(failedNames(checkInvariants({ ...input, final }))).toEqual([
      'every refusal was honest and visible',
    ]);
  });
});
