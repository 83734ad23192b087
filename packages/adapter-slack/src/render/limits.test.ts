import {
  actions,
  button,
  card,
  context,
  divider,
  type Form,
  fields,
  form,
  image,
  linkButton,
  type Message,
  MessageLimitError,
  option,
  section,
  select,
  textField,
} from '@rt/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsHarness, slashEvent } from '../test-support/conversation.js';
import { SLACK_LIMITS, type SlackLimit } from './limits.js';

const a = (n: number) => 'a'.repeat(n);
const row = (...elements: Parameters<typeof actions>) => card({}, actions(...elements));
const options = (n: number) => Array.from({ length: n }, (_, i) => option(`o${i}`, `v${i}`));

/** Each message limit: a message of size `n`, and the path the error must name. */
const MESSAGE_CASES: readonly { limit: SlackLimit; path: string; build(n: number): Message }[] = [
  { limit: 'message text', path: 'text', build: (n) => a(n) },
  {
    limit: 'blocks per message',
    path: 'card.children',
    build: (n) => card({}, ...Array.from({ length: n }, () => divider())),
  },
  { limit: 'header text', path: 'card.title', build: (n) => card({ title: a(n) }) },
  { limit: 'section text', path: 'card.children[0].text', build: (n) => card({}, section(a(n))) },
  {
    limit: 'field text',
    path: 'card.children[0].fields[0]',
    build: (n) => card({}, fields({ k: a(n - '*k*\n'.length) })),
  },
  { limit: 'context text', path: 'card.children[0].text', build: (n) => card({}, context(a(n))) },
  {
    limit: 'elements per actions block',
    path: 'card.children[0].elements',
    build: (n) => row(...Array.from({ length: n }, (_, i) => button(`b${i}`, 'B'))),
  },
  {
    limit: 'button text',
    path: 'card.children[0].elements[0].label',
    build: (n) => row(button('b', a(n))),
  },
  {
    limit: 'button value',
    path: 'card.children[0].elements[0].value',
    build: (n) => row(button('b', 'B', { value: a(n) })),
  },
  {
    limit: 'button url',
    path: 'card.children[0].elements[0].url',
    build: (n) => row(linkButton(`https://x.io/${a(n - 'https://x.io/'.length)}`, 'L')),
  },
  {
    limit: 'options per select',
    path: 'card.children[0].elements[0].options',
    build: (n) => row(select('s', options(n))),
  },
  {
    limit: 'option text',
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
    limit: 'image url',
    path: 'card.children[0].url',
    build: (n) => card({}, image(`https://x.io/${a(n - 'https://x.io/'.length)}`, 'alt')),
  },
  {
    limit: 'image alt text',
    path: 'card.children[0].alt',
    build: (n) => card({}, image('https://x.io/i.png', a(n))),
  },
];

const field = (label = 'L') => textField('f', label);
const many = (n: number) => Array.from({ length: n }, (_, i) => textField(`f${i}`, 'L'));

/** Each form limit. */
const FORM_CASES: readonly { limit: SlackLimit; path: string; build(n: number): Form }[] = [
  {
    limit: 'modal title',
    path: 'form.title',
    build: (n) => form({ id: 'f', title: a(n), fields: [field()] }),
  },
  {
    limit: 'modal submit text',
    path: 'form.submitLabel',
    build: (n) => form({ id: 'f', title: 'T', submitLabel: a(n), fields: [field()] }),
  },
  {
    limit: 'blocks per modal',
    path: 'form.fields',
    build: (n) => form({ id: 'f', title: 'T', fields: many(n) }),
  },
  {
    limit: 'input label',
    path: 'form.fields[0].label',
    build: (n) => form({ id: 'f', title: 'T', fields: [field(a(n))] }),
  },
  {
    limit: 'text input length',
    path: 'form.fields[0].initial',
    build: (n) => form({ id: 'f', title: 'T', fields: [textField('f', 'L', { initial: a(n) })] }),
  },
  {
    limit: 'placeholder',
    path: 'form.fields[0].placeholder',
    build: (n) =>
      form({ id: 'f', title: 'T', fields: [textField('f', 'L', { placeholder: a(n) })] }),
  },
];

describe('Slack limits, checked before the network', () => {
  let h: Awaited<ReturnType<typeof actionsHarness>>;
  const signal = new AbortController().signal;
  beforeAll(async () => {
    h = await actionsHarness();
  });
  afterAll(() => h.close());

  describe.each(MESSAGE_CASES)('$limit', ({ limit, path, build }) => {
    const max = SLACK_LIMITS[limit];

    it(`accepts a message at the limit (${max}), and Slack's fake accepts it too`, async () => {
      const before = h.fake.callsTo('chat.postMessage').length;
      await h.adapter.actions.post(slashEvent(), build(max), { signal });
      expect(h.fake.callsTo('chat.postMessage')).toHaveLength(before + 1);
      expect(h.fake.rejections).toEqual([]);
    });

    it('refuses one past it with a MessageLimitError naming the limit and the path, sending nothing', async () => {
      const before = h.fake.calls.length;
      const error = await h.adapter.actions
        .post(slashEvent(), build(max + 1), { signal })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MessageLimitError);
      expect(error).toMatchObject({ limit, path, max, actual: max + 1, adapter: 'slack' });
      expect(h.fake.calls).toHaveLength(before);
    });
  });

  describe.each(FORM_CASES)('$limit (forms)', ({ limit, path, build }) => {
    const max = SLACK_LIMITS[limit];

    it(`opens a form at the limit (${max})`, async () => {
      const before = h.fake.callsTo('views.open').length;
      await h.adapter.actions.openForm(slashEvent(), build(max), { signal });
      expect(h.fake.callsTo('views.open')).toHaveLength(before + 1);
      expect(h.fake.rejections).toEqual([]);
    });

    it('refuses one past it, opening nothing', async () => {
      const before = h.fake.calls.length;
      const error = await h.adapter.actions
        .openForm(slashEvent(), build(max + 1), { signal })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'RT_MESSAGE_LIMIT', limit, path, max, actual: max + 1 });
      expect(h.fake.calls).toHaveLength(before);
    });
  });

  it('covers every limit a neutral message can reach', () => {
    const covered = new Set([...MESSAGE_CASES, ...FORM_CASES].map((c) => c.limit));
    const uncovered = Object.keys(SLACK_LIMITS).filter((l) => !covered.has(l as SlackLimit));
    // Neutral ids stop at 100 characters (`MAX_ID_LENGTH`), below Slack's 255; field pairs past
    // ten continue in a further section (block-kit.test.ts).
    expect(uncovered.sort()).toEqual([
      'action_id',
      'block_id',
      'callback_id',
      'fields per section',
    ]);
  });
});
