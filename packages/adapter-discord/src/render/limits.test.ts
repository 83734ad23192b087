import {
  actions,
  button,
  card,
  divider,
  type Form,
  form,
  image,
  linkButton,
  type Message,
  MessageLimitError,
  option,
  type RtEvent,
  section,
  select,
  textField,
} from '@rt/core';
import { validateDiscordModal } from '@rt/testing/discord';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';
import { renderDiscordForm } from './components.js';
import { DISCORD_LIMITS, type DiscordLimit } from './limits.js';

const a = (n: number) => 'a'.repeat(n);
const row = (...elements: Parameters<typeof actions>) => card({}, actions(...elements));
const options = (n: number) => Array.from({ length: n }, (_, i) => option(`o${i}`, `v${i}`));
const url = (n: number) => `https://x.io/${a(n - 'https://x.io/'.length)}`;

/** Each message limit: a message of size `n`, and the path the error must name. */
const MESSAGE_CASES: readonly { limit: DiscordLimit; path: string; build(n: number): Message }[] = [
  { limit: 'message content', path: 'text', build: (n) => ({ text: a(n) }) },
  {
    limit: 'components per message',
    path: 'card.children',
    build: (n) => card({}, ...Array.from({ length: n - 1 }, () => divider())),
  },
  { limit: 'text display characters', path: 'card', build: (n) => card({}, section(a(n))) },
  {
    limit: 'button label',
    path: 'card.children[0].elements[0].label',
    build: (n) => row(button('b', a(n))),
  },
  {
    limit: 'custom_id',
    path: 'card.children[0].elements[0].value',
    build: (n) => row(button('b', 'B', { value: a(n - 'b|'.length) })),
  },
  {
    limit: 'button url',
    path: 'card.children[0].elements[0].url',
    build: (n) => row(linkButton(url(n), 'L')),
  },
  {
    limit: 'options per select',
    path: 'card.children[0].elements[0].options',
    build: (n) => row(select('s', options(n))),
  },
  {
    limit: 'option label',
    path: 'card.children[0].elements[0].options[0].label',
    build: (n) => row(select('s', [option(a(n), 'v')])),
  },
  {
    limit: 'option value',
    path: 'card.children[0].elements[0].options[0].value',
    build: (n) => row(select('s', [option('o', a(n))])),
  },
  {
    limit: 'option description',
    path: 'card.children[0].elements[0].options[0].description',
    build: (n) => row(select('s', [option('o', 'v', a(n))])),
  },
  {
    limit: 'placeholder',
    path: 'card.children[0].elements[0].placeholder',
    build: (n) => row(select('s', options(1), { placeholder: a(n) })),
  },
  {
    limit: 'media description',
    path: 'card.children[0].alt',
    build: (n) => card({}, image('https://x.io/i.png', a(n))),
  },
];

const many = (n: number) => Array.from({ length: n }, (_, i) => textField(`f${i}`, 'L'));
const one = (settings: Parameters<typeof textField>[2]) => [textField('f', 'L', settings)];

const FORM_CASES: readonly { limit: DiscordLimit; path: string; build(n: number): Form }[] = [
  {
    limit: 'modal title',
    path: 'form.title',
    build: (n) => form({ id: 'f', title: a(n), fields: many(1) }),
  },
  {
    limit: 'components per modal',
    path: 'form.fields',
    build: (n) => form({ id: 'f', title: 'T', fields: many(n) }),
  },
  {
    limit: 'label text',
    path: 'form.fields[0].label',
    build: (n) => form({ id: 'f', title: 'T', fields: [textField('f', a(n))] }),
  },
  {
    limit: 'text input value',
    path: 'form.fields[0].initial',
    build: (n) => form({ id: 'f', title: 'T', fields: one({ initial: a(n) }) }),
  },
  {
    limit: 'text input placeholder',
    path: 'form.fields[0].placeholder',
    build: (n) => form({ id: 'f', title: 'T', fields: one({ placeholder: a(n) }) }),
  },
  {
    limit: 'text input max length',
    path: 'form.fields[0].maxLength',
    build: (n) => form({ id: 'f', title: 'T', fields: one({ maxLength: n }) }),
  },
];

/** A gateway message event, as the adapter dispatches it. */
function messageEvent(): RtEvent {
  return {
    adapter: 'discord',
    tenant: 'G1',
    id: 'm1',
    kind: 'message',
    shape: 'message_create',
    channel: '500',
    receivedAt: Date.now(),
    payload: { id: 'm1', channel_id: '500' },
  };
}

describe('Discord limits, checked before the network', () => {
  let h: Harness;
  const signal = new AbortController().signal;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  describe.each(MESSAGE_CASES)('$limit', ({ limit, path, build }) => {
    const max = DISCORD_LIMITS[limit];

    it(`accepts a message at the limit (${max}), and Discord's fake accepts it too`, async () => {
      const before = h.fake.callsTo('POST /channels/:channel/messages').length;
      await h.adapter.actions.post(messageEvent(), build(max), { signal });
      expect(h.fake.callsTo('POST /channels/:channel/messages')).toHaveLength(before + 1);
      expect(h.fake.rejections).toEqual([]);
    });

    it('refuses one past it with a MessageLimitError naming the limit and the path, sending nothing', async () => {
      const before = h.fake.calls.length;
      const error = await h.adapter.actions
        .post(messageEvent(), build(max + 1), { signal })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MessageLimitError);
      expect(error).toMatchObject({ limit, path, max, actual: max + 1, adapter: 'discord' });
      expect(h.fake.calls).toHaveLength(before);
    });
  });

  describe.each(FORM_CASES)('$limit (forms)', ({ limit, path, build }) => {
    const max = DISCORD_LIMITS[limit];

    it(`renders a modal at the limit (${max}) that Discord accepts`, () => {
      expect(validateDiscordModal(renderDiscordForm(build(max)))).toEqual([]);
    });

    it('refuses one past it', () => {
      expect(() => renderDiscordForm(build(max + 1))).toThrow(
        expect.objectContaining({ code: 'RT_MESSAGE_LIMIT', limit, path, max, actual: max + 1 }),
      );
    });
  });

  it('covers every limit a neutral message can reach', () => {
    const covered = new Set([...MESSAGE_CASES, ...FORM_CASES].map((c) => c.limit));
    expect(Object.keys(DISCORD_LIMITS).filter((l) => !covered.has(l as DiscordLimit))).toEqual([]);
  });
});
