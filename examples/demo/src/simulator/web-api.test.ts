import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SimulatorLedger } from './ledger.js';
import { DEMO_CHANNEL, NO_STREAM_CHANNEL } from './slack-simulator.js';
import { SimulatedWebApi } from './web-api.js';

const BUSY = 'This app is busy right now.';

async function post(url: string, body: Record<string, unknown>, token?: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  await response.text();
}

describe('SimulatedWebApi', () => {
  let ledger: SimulatorLedger;
  let api: SimulatedWebApi;

  beforeEach(async () => {
    ledger = new SimulatorLedger();
    api = await SimulatedWebApi.start(ledger, BUSY);
  });
  afterEach(() => api.close());

  it('attributes a busy post to the invocation that owns the response_url', async () => {
    const commandUrl = api.responseUrl();
    const clickUrl = api.responseUrl();
    const command = ledger.addInvocation('cmd.1', 'command', commandUrl);
    const click = ledger.addInvocation('clk.1', 'click', clickUrl);
    // A late busy signal for an acknowledged command must not count as a refused click.
    await post(commandUrl, { text: BUSY });
    await post(clickUrl, { text: BUSY });
    await post(clickUrl, { text: 'Approved. Thanks!' });
    await post(api.url.replace('/api/', '/response/999'), { text: BUSY });
    api.poll();
    expect(api.counters.busyPosts).toEqual({ command: 1, click: 1, unknown: 1 });
    expect(api.counters.answerPosts).toBe(1);
    expect(command.responseTexts).toEqual([BUSY]);
    expect(click.responseTexts).toEqual([BUSY, 'Approved. Thanks!']);
  });

  it("records each chat.postMessage in its event's thread, and others as stray", async () => {
    const event = ledger.addEvent('Ev1', 'C1:1.000001');
    const other = ledger.addEvent('Ev2', 'C1:2.000002');
    await post(
      `${api.url}chat.postMessage`,
      { channel: 'C1', thread_ts: '1.000001', text: 'a' },
      'x',
    );
    await post(
      `${api.url}chat.postMessage`,
      { channel: 'C1', thread_ts: '1.000001', text: 'b' },
      'x',
    );
    await post(`${api.url}chat.postMessage`, { channel: 'C1', text: 'top level' }, 'x');
    await post(`${api.url}chat.postMessage`, { channel: 'C1', thread_ts: '9.9', text: 'c' }, 'x');
    api.poll();
    expect(ledger.repliesTo(event)).toBe(2);
    expect(ledger.repliesTo(other)).toBe(0);
    expect(ledger.strayMessages).toBe(2);
    expect(api.counters.messagesPosted).toBe(4);
  });

  it('counts a native stream as its thread reply, but not one Slack refused in a no-stream channel', async () => {
    const native = ledger.addEvent('Ev1', `${DEMO_CHANNEL}:1.000001`);
    const refused = ledger.addEvent('Ev2', `${NO_STREAM_CHANNEL}:2.000002`);
    const recipient = { recipient_user_id: 'U1', recipient_team_id: 'T1' };
    const start = (channel: string, threadTs: string) =>
      post(
        `${api.url}chat.startStream`,
        { channel, thread_ts: threadTs, markdown_text: 'Hi', ...recipient },
        'x',
      );
    await start(DEMO_CHANNEL, '1.000001');
    await start(NO_STREAM_CHANNEL, '2.000002');
    api.poll();
    expect(ledger.repliesTo(native)).toBe(1);
    expect(ledger.repliesTo(refused)).toBe(0);
    expect(api.messages().map((m) => [m.channel, m.stream])).toEqual([[DEMO_CHANNEL, 'open']]);
  });
});
