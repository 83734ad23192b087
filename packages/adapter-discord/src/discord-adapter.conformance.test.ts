import { DEFAULT_BODY_LIMIT_BYTES } from '@rt/core/adapter';
import { stateWith } from '@rt/testing';
import { closeHttpTransports, HTTP_TRANSPORTS, runAdapterConformance } from '@rt/testing/adapter';
import {
  buildButton,
  buildChatInputCommand,
  createDiscordSigner,
  type DiscordTestInteraction,
} from '@rt/testing/discord';
import { DISCORD_SHAPE_ROWS, syncAnswer } from './test-support/answer-table.js';
import { startHarness } from './test-support/harness.js';

/** Every bot of the suite verifies with this key; `wrong` signs the suite's "invalid" requests. */
const signer = createDiscordSigner();
const wrong = createDiscordSigner();

const raw = (body: string) => () => signer.request(body);

for (const transport of HTTP_TRANSPORTS) {
  runAdapterConformance<DiscordTestInteraction>(
    `discord adapter (HTTP interactions, ${transport.name})`,
    {
      async createBot({ runtime, busyText, unavailableText, state }) {
        const h = await startHarness({
          transport,
          signer,
          runtime,
          adapter: { busyText, unavailableText },
          // A State the suite shares between two bots is the suite's to close, not the harness's.
          ...(state === undefined
            ? {}
            : { state: { ...stateWith(state, {}), close: async () => {} } }),
        });
        return {
          runtime: h.runtime,
          state: state ?? h.state,
          adapterName: h.adapter.name,
          send: (request) => h.serve(request),
          platformCalls: async () => {
            await h.adapter.drain();
            return [...h.fake.calls];
          },
          close: async () => {
            await closeHttpTransports(h.adapter);
            await h.fake.close();
            if (state === undefined) await h.state.close();
          },
        };
      },
      request: (payload, signature) =>
        signature === 'valid'
          ? signer.request(payload)
          : signature === 'invalid'
            ? wrong.request(payload)
            : signer.request(payload, { unsigned: true }),
      shapes: DISCORD_SHAPE_ROWS,
      answer: syncAnswer,
      oversizedPayload: () => ({ ...buildButton(), padding: 'x'.repeat(DEFAULT_BODY_LIMIT_BYTES) }),
      unparsable: [
        { name: 'truncated JSON', request: raw('{"type":2,"id":"1",') },
        { name: 'a JSON array', request: raw('[]') },
        {
          name: 'an unknown interaction type',
          request: raw(JSON.stringify({ ...buildButton(), type: 99 })),
        },
        {
          name: 'a command without data',
          request: () => {
            const { data: _data, ...rest } = buildChatInputCommand();
            return signer.request(rest);
          },
        },
      ],
    },
  );
}
