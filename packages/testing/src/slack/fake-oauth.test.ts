import { afterEach, describe, expect, it } from 'vitest';
import { type FakeSlackApi, startFakeSlackApi } from './fake-web-api.js';

const OAUTH = {
  clientId: 'cid',
  clientSecret: 'csecret',
  workspaces: [{ teamId: 'T1', teamName: 'One' }],
  tokenRotation: { expiresInS: 60 },
};

async function post(
  fake: FakeSlackApi,
  method: string,
  args: Record<string, string>,
  token?: string,
) {
  const response = await fetch(`${fake.url}${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: new URLSearchParams(args).toString(),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('the fake Slack OAuth', () => {
  let fake: FakeSlackApi | undefined;
  afterEach(async () => {
    await fake?.close();
  });

  it('consents, redirects with a single-use code, exchanges it, refreshes and answers auth.test per token', async () => {
    fake = await startFakeSlackApi({ oauth: OAUTH });
    const authorize = new URL(fake.oauth?.authorizeUrl as string);
    authorize.search = new URLSearchParams({
      client_id: 'cid',
      scope: 'chat:write',
      redirect_uri: 'http://127.0.0.1:1/back',
      state: 's1',
    }).toString();
    const consent = await (await fetch(authorize)).text();
    const href = /id="allow-T1" href="([^"]*)"/.exec(consent)?.[1]?.replace(/&#38;/g, '&');
    const approve = await fetch(href as string, { redirect: 'manual' });
    const back = new URL(approve.headers.get('location') as string);
    expect(back.searchParams.get('state')).toBe('s1');
    const code = back.searchParams.get('code') as string;
    const exchange = {
      client_id: 'cid',
      client_secret: 'csecret',
      code,
      redirect_uri: 'http://127.0.0.1:1/back',
    };
    const access = await post(fake, 'oauth.v2.access', exchange);
    expect(access).toMatchObject({
      ok: true,
      team: { id: 'T1' },
      token_type: 'bot',
      expires_in: 60,
    });
    expect(await post(fake, 'oauth.v2.access', exchange)).toMatchObject({
      ok: false,
      error: 'invalid_code',
    });
    const token = access.access_token as string;
    expect(await post(fake, 'auth.test', {}, token)).toMatchObject({
      ok: true,
      team_id: 'T1',
      user_id: 'UBT1',
    });
    const refreshed = await post(fake, 'oauth.v2.access', {
      client_id: 'cid',
      client_secret: 'csecret',
      grant_type: 'refresh_token',
      refresh_token: access.refresh_token as string,
    });
    expect(refreshed.access_token).not.toBe(token);
    expect(fake.oauth?.refreshCount).toBe(1);
    expect(fake.oauth?.botTokenOf('T:T1')).toBe(refreshed.access_token);
    fake.oauth?.revokeInstallation('T:T1');
    expect(await post(fake, 'auth.test', {}, token)).toMatchObject({
      ok: false,
      error: 'token_revoked',
    });
    expect(await post(fake, 'chat.postMessage', {}, 'xoxb-unknown')).toMatchObject({
      error: 'invalid_auth',
    });
    expect(
      await post(fake, 'oauth.v2.access', { ...exchange, client_secret: 'wrong' }),
    ).toMatchObject({
      error: 'bad_client_secret',
    });
  });
});
