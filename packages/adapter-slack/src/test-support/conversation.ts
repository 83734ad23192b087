import type { RtEvent } from '@rt/core';
import { type FakeSlackApi, startFakeSlackApi } from '@rt/testing/slack';
import { createSlackAdapter, type SlackAdapter } from '../slack-adapter.js';

/** A Slack adapter pointed at a fresh fake Web API (no retries), for calling `adapter.actions`. */
export async function actionsHarness(): Promise<{
  fake: FakeSlackApi;
  adapter: SlackAdapter;
  close(): Promise<void>;
}> {
  const fake = await startFakeSlackApi();
  const adapter = createSlackAdapter({
    signingSecret: 'secret',
    botToken: 'xoxb-actions',
    apiUrl: fake.url,
    webClientOptions: { retryConfig: { retries: 0 } },
  });
  return { fake, adapter, close: () => fake.close() };
}

/** A slash command event as the adapter would dispatch it (fresh trigger, received now). */
export function slashEvent(overrides: Partial<RtEvent> = {}): RtEvent {
  return {
    adapter: 'slack',
    tenant: 'T0TEAM',
    id: 'trigger-1',
    kind: 'command',
    shape: 'slash_command',
    command: 'rt',
    channel: 'C1',
    user: 'U1',
    receivedAt: Date.now(),
    payload: { team_id: 'T0TEAM', channel_id: 'C1', user_id: 'U1', trigger_id: 'trigger-1' },
    ...overrides,
  };
}
