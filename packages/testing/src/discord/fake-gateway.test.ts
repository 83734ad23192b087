import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type FakeDiscordGateway, startFakeDiscordGateway } from './fake-gateway.js';
import { startFakeDiscord } from './fake-gateway-pair.js';
import { DISCORD_TEST_IDS } from './payloads.js';

interface Frame {
  readonly op: number;
  readonly s?: number | null;
  readonly t?: string | null;
  readonly d?: unknown;
}

/** A bare protocol client: collects frames, waits for the next ones. */
async function connect(url: string) {
  const ws = new WebSocket(`${url}?v=10&encoding=json`);
  const frames: Frame[] = [];
  const wakers = new Set<() => void>();
  ws.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const wake of [...wakers]) wake();
  });
  await once(ws, 'open');
  return {
    ws,
    frames,
    send: (frame: Frame) => ws.send(JSON.stringify(frame)),
    /** Resolves once `count` frames arrived in total. */
    until: (count: number) =>
      new Promise<Frame[]>((resolve) => {
        const wake = () => {
          if (frames.length < count) return;
          wakers.delete(wake);
          resolve(frames.slice());
        };
        wakers.add(wake);
        wake();
      }),
  };
}

describe('the fake Discord gateway speaks the v10 protocol', () => {
  let gateway: FakeDiscordGateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('HELLO, IDENTIFY → READY and GUILD_CREATE, heartbeats ACKed, dispatches numbered', async () => {
    gateway = await startFakeDiscordGateway({ tokens: ['t1'], heartbeatIntervalMs: 1234 });
    const client = await connect(gateway.url);
    expect((await client.until(1))[0]).toEqual({ op: 10, d: { heartbeat_interval: 1234 } });
    client.send({ op: 1, d: null });
    expect((await client.until(2))[1]).toEqual({ op: 11 });
    client.send({ op: 2, d: { token: 't1', intents: 513 } });
    const [, , ready, guild] = await client.until(4);
    expect(ready).toMatchObject({
      op: 0,
      s: 1,
      t: 'READY',
      d: { resume_gateway_url: gateway.url },
    });
    expect((ready?.d as { guilds?: unknown } | undefined)?.guilds).toEqual([
      { id: DISCORD_TEST_IDS.guildId, unavailable: true },
    ]);
    expect(guild).toMatchObject({ s: 2, t: 'GUILD_CREATE', d: { id: DISCORD_TEST_IDS.guildId } });
    expect(gateway.connected).toBe(true);
    expect(gateway.dispatch('MESSAGE_CREATE', { id: 'm1' })).toBe(3);
    expect((await client.until(5))[4]).toEqual({
      op: 0,
      s: 3,
      t: 'MESSAGE_CREATE',
      d: { id: 'm1' },
    });
    expect(gateway.events.map((e) => e.type)).toEqual(['connect', 'heartbeat', 'identify']);
    client.ws.close(1000);
    expect(await gateway.waitFor('close')).toEqual([{ type: 'close', code: 1000, byClient: true }]);
  });

  it('a dropped client RESUMEs: it gets what it missed (with the configured overlap), then RESUMED', async () => {
    gateway = await startFakeDiscordGateway({ resumeReplayOverlap: 1 });
    const first = await connect(gateway.url);
    first.send({ op: 2, d: { token: 'any', intents: 1 } });
    await first.until(3);
    gateway.dispatch('MESSAGE_CREATE', { id: 'seen' });
    await first.until(4);
    gateway.dropConnection();
    expect(await gateway.waitFor('close')).toEqual([
      { type: 'close', code: 4000, byClient: false },
    ]);
    gateway.dispatch('MESSAGE_CREATE', { id: 'missed' });
    const second = await connect(gateway.url);
    second.send({ op: 6, d: { token: 'any', session_id: 'fake-session-1', seq: 3 } });
    const frames = await second.until(4);
    expect(frames.slice(1).map((f) => [f.s, f.t])).toEqual([
      [3, 'MESSAGE_CREATE'],
      [4, 'MESSAGE_CREATE'],
      [5, 'RESUMED'],
    ]);
    second.ws.close(1000);
  });

  it('an unknown session gets INVALID_SESSION, a wrong token close 4004, and goDown refuses upgrades', async () => {
    gateway = await startFakeDiscordGateway({ tokens: ['good'] });
    const resumer = await connect(gateway.url);
    resumer.send({ op: 6, d: { token: 'good', session_id: 'nope', seq: 1 } });
    expect((await resumer.until(2))[1]).toEqual({ op: 9, d: false });
    resumer.ws.close(1000);
    const impostor = await connect(gateway.url);
    impostor.send({ op: 2, d: { token: 'bad', intents: 1 } });
    const [code] = (await once(impostor.ws, 'close')) as [number];
    expect(code).toBe(4004);
    gateway.goDown();
    const refused = new WebSocket(gateway.url);
    const [error] = (await once(refused, 'error')) as [Error];
    expect(error.message).toMatch(/503/);
  });

  it('startFakeDiscord points GET /gateway/bot at the fake gateway', async () => {
    const fake = await startFakeDiscord();
    try {
      const response = await fetch(`${fake.rest.url}/v10/gateway/bot`, {
        headers: { authorization: 'Bot some-token' },
      });
      expect(await response.json()).toMatchObject({ url: fake.gateway.url, shards: 1 });
    } finally {
      await fake.close();
    }
  });
});
