import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeDiscordRest,
  type FakeDiscordRestOptions,
  startFakeDiscordRest,
} from './fake-rest.js';

describe('the fake Discord REST message rules', () => {
  let fake: FakeDiscordRest;
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${fake.url}/v10${path}`, {
      method,
      headers: {
        authorization: 'Bot t0k',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const start = async (options: FakeDiscordRestOptions = {}) => {
    fake = await startFakeDiscordRest(options);
  };
  afterEach(async () => {
    await fake.close();
  });

  it('edits a message it created and keeps its content', async () => {
    await start();
    const created = (await (
      await call('POST', '/channels/7/messages', { content: 'a' })
    ).json()) as {
      id: string;
    };
    const edited = await call('PATCH', `/channels/7/messages/${created.id}`, { content: 'ab' });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ id: created.id, content: 'ab' });
    expect(fake.messages.get(created.id)).toMatchObject({ content: 'ab', edits: 1, channel: '7' });
    const unknown = await call('PATCH', '/channels/7/messages/123', { content: 'x' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 10008 });
  });

  it('remembers which message a reply answers (message_reference)', async () => {
    await start();
    const reply = (await (
      await call('POST', '/channels/7/messages', {
        content: 'r',
        message_reference: { message_id: '42' },
      })
    ).json()) as { id: string };
    const plain = (await (await call('POST', '/channels/7/messages', { content: 'p' })).json()) as {
      id: string;
    };
    expect(fake.messages.get(reply.id)?.replyTo).toBe('42');
    expect(fake.messages.get(plain.id)?.replyTo).toBeUndefined();
  });

  it('refuses content over 2000 characters and accepts exactly 2000', async () => {
    await start();
    expect((await call('POST', '/channels/7/messages', { content: 'x'.repeat(2000) })).status).toBe(
      200,
    );
    const refused = await call('POST', '/channels/7/messages', { content: 'x'.repeat(2001) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 50035 });
    expect(fake.messages.tooLong).toBe(1);
  });

  it('rate-limits creates and edits per channel with 429 and Retry-After', async () => {
    await start({ messageRate: { limit: 2, windowMs: 60_000 } });
    const first = (await (await call('POST', '/channels/7/messages', { content: 'a' })).json()) as {
      id: string;
    };
    expect((await call('PATCH', `/channels/7/messages/${first.id}`, { content: 'b' })).status).toBe(
      200,
    );
    const refused = await call('PATCH', `/channels/7/messages/${first.id}`, { content: 'c' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(59);
    expect(await refused.json()).toMatchObject({ global: false });
    // Another channel has its own budget.
    expect((await call('POST', '/channels/8/messages', { content: 'x' })).status).toBe(200);
    expect(fake.messages.get(first.id)?.content).toBe('b');
    expect(fake.messages.refused).toBe(1);
  });

  it('records typing', async () => {
    await start();
    expect((await call('POST', '/channels/7/typing')).status).toBe(204);
    expect(fake.messages.typing).toEqual(['7']);
  });
});
