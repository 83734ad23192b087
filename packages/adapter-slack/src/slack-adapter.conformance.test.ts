import { DEFAULT_BODY_LIMIT_BYTES } from '@rt/core/adapter';
import { stateWith } from '@rt/testing';
import { HTTP_TRANSPORTS, runAdapterConformance } from '@rt/testing/adapter';
import {
  buildMessageEvent,
  createSlackSigner,
  jsonPayload,
  type SlackTestPayload,
} from '@rt/testing/slack';
import {
  SLACK_SHAPES,
  type SlackConformanceBot,
  slackConformanceBot,
  syncAnswer,
} from './test-support/answer-table.js';
import { SECRET, startHarness } from './test-support/harness.js';

/** A validly signed request with `body` as its raw body. */
const signedRaw = (body: string, contentType: string) =>
  createSlackSigner(SECRET).request({ body, contentType, data: {} });

for (const transport of HTTP_TRANSPORTS) {
  runAdapterConformance<SlackTestPayload, SlackConformanceBot>(
    `slack adapter (HTTP, ${transport.name})`,
    {
      async createBot({ runtime, busyText, unavailableText, state }) {
        const h = await startHarness({
          transport,
          runtime,
          adapter: { busyText, unavailableText },
          // A State the suite shares between two bots is the suite's to close, not the harness's.
          ...(state === undefined
            ? {}
            : { state: { ...stateWith(state, {}), close: async () => {} } }),
        });
        return slackConformanceBot(h, state);
      },
      request: (payload, signature) =>
        createSlackSigner(signature === 'invalid' ? 'wrong-secret' : SECRET).request(payload, {
          unsigned: signature === 'missing',
        }),
      shapes: SLACK_SHAPES,
      answer: syncAnswer,
      oversizedPayload: () => buildMessageEvent({ text: 'x'.repeat(DEFAULT_BODY_LIMIT_BYTES) }),
      unparsable: [
        {
          name: 'truncated JSON',
          request: () => signedRaw('{"type":"event_callback",', 'application/json'),
        },
        { name: 'a JSON array', request: () => signedRaw('[]', 'application/json') },
        {
          name: 'an interactive payload that is not JSON',
          request: () => signedRaw('payload=%7Bnot-json', 'application/x-www-form-urlencoded'),
        },
        {
          name: 'a form without payload or command',
          request: () => signedRaw('team_id=T1', 'application/x-www-form-urlencoded'),
        },
        {
          name: 'an event_callback without an inner event',
          request: () =>
            signedRaw(
              jsonPayload({ type: 'event_callback', event_id: 'Ev1' }).body,
              'application/json',
            ),
        },
      ],
    },
  );
}
