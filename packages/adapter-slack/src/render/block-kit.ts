import type { ActionElement, Card, CardElement, Form, FormErrors, SelectOption } from '@rt/core';
import { cardFallback, checkLength, checkLimit, isCard, type Message } from '@rt/core/adapter';
import { SLACK_LIMITS, type SlackLimit } from './limits.js';
import { plain, toMrkdwn } from './mrkdwn.js';

/** What a neutral message becomes for `chat.postMessage` / `chat.update` / `chat.postEphemeral`. */
export interface SlackPayload {
  readonly text: string;
  readonly blocks?: readonly Record<string, unknown>[];
  readonly [field: string]: unknown;
}

type Block = Record<string, unknown>;

function check(limit: SlackLimit, path: string, text: string | undefined): void {
  checkLength('slack', limit, path, SLACK_LIMITS[limit], text);
}

function count(limit: SlackLimit, path: string, actual: number): void {
  checkLimit('slack', limit, path, SLACK_LIMITS[limit], actual);
}

function renderOption(option: SelectOption, path: string): Block {
  check('option text', `${path}.label`, option.label);
  check('option value', `${path}.value`, option.value);
  check('option description', `${path}.description`, option.description);
  return {
    text: plain(option.label),
    value: option.value,
    ...(option.description !== undefined ? { description: plain(option.description) } : {}),
  };
}

function renderSelect(
  id: string,
  options: readonly SelectOption[],
  placeholder: string | undefined,
  initial: string | undefined,
  path: string,
): Block {
  check('action_id', `${path}.id`, id);
  check('placeholder', `${path}.placeholder`, placeholder);
  count('options per select', `${path}.options`, options.length);
  const rendered = options.map((option, k) => renderOption(option, `${path}.options[${k}]`));
  const initialIndex = initial === undefined ? -1 : options.findIndex((o) => o.value === initial);
  return {
    type: 'static_select',
    action_id: id,
    options: rendered,
    ...(placeholder !== undefined ? { placeholder: plain(placeholder) } : {}),
    ...(initialIndex >= 0 ? { initial_option: rendered[initialIndex] } : {}),
  };
}

function renderAction(element: ActionElement, path: string): Block {
  switch (element.type) {
    case 'button':
      check('action_id', `${path}.id`, element.id);
      check('button text', `${path}.label`, element.label);
      check('button value', `${path}.value`, element.value);
      return {
        type: 'button',
        action_id: element.id,
        text: plain(element.label),
        ...(element.value !== undefined ? { value: element.value } : {}),
        ...(element.style !== undefined ? { style: element.style } : {}),
      };
    case 'link_button':
      check('button text', `${path}.label`, element.label);
      check('button url', `${path}.url`, element.url);
      return { type: 'button', text: plain(element.label), url: element.url };
    case 'select':
      return renderSelect(element.id, element.options, element.placeholder, element.initial, path);
  }
}

/**
 * Slack wants `action_id`s unique within a block: a repeated neutral id (two buttons of one
 * action, told apart by `value`) gets `|<n>` appended, which the normaliser strips again.
 */
function uniqueActionId(element: Block, seen: Map<string, number>): Block {
  const id = element.action_id;
  if (typeof id !== 'string') return element;
  const times = seen.get(id) ?? 0;
  seen.set(id, times + 1);
  return times === 0 ? element : { ...element, action_id: `${id}|${times}` };
}

function renderElement(element: CardElement, path: string): Block[] {
  switch (element.type) {
    case 'section': {
      const text = toMrkdwn(element.text);
      check('section text', `${path}.text`, text);
      return [{ type: 'section', text: { type: 'mrkdwn', text } }];
    }
    case 'fields': {
      const texts = element.fields.map((field, j) => {
        const text = `*${toMrkdwn(field.label)}*\n${toMrkdwn(field.value)}`;
        check('field text', `${path}.fields[${j}]`, text);
        return { type: 'mrkdwn', text };
      });
      // Policy: more pairs than a section holds continue in the next section.
      const blocks: Block[] = [];
      const perSection = SLACK_LIMITS['fields per section'];
      for (let start = 0; start < texts.length; start += perSection) {
        blocks.push({ type: 'section', fields: texts.slice(start, start + perSection) });
      }
      return blocks;
    }
    case 'image':
      check('image url', `${path}.url`, element.url);
      check('image alt text', `${path}.alt`, element.alt);
      return [{ type: 'image', image_url: element.url, alt_text: element.alt }];
    case 'divider':
      return [{ type: 'divider' }];
    case 'context': {
      const text = toMrkdwn(element.text);
      check('context text', `${path}.text`, text);
      return [{ type: 'context', elements: [{ type: 'mrkdwn', text }] }];
    }
    case 'actions': {
      count('elements per actions block', `${path}.elements`, element.elements.length);
      const seen = new Map<string, number>();
      return [
        {
          type: 'actions',
          elements: element.elements.map((action, j) =>
            uniqueActionId(renderAction(action, `${path}.elements[${j}]`), seen),
          ),
        },
      ];
    }
  }
}

/** A card as Block Kit: header, blocks in order, the fallback as `text`. */
export function renderCard(card: Card): SlackPayload {
  const blocks: Block[] = [];
  if (card.title !== undefined) {
    check('header text', 'card.title', card.title);
    blocks.push({ type: 'header', text: plain(card.title) });
  }
  card.children.forEach((child, i) => {
    blocks.push(...renderElement(child, `card.children[${i}]`));
  });
  count('blocks per message', 'card.children', blocks.length);
  const text = cardFallback(card);
  check('message text', 'card.fallback', text);
  return { ...card.extra, text, blocks };
}

/**
 * A neutral message as a Slack message payload: markdown text as mrkdwn `text`, a card as blocks
 * with its fallback as `text`, `{ text, extra }` passed through untouched. Every Slack limit is
 * checked first (`MessageLimitError` naming the limit and the element's path).
 */
export function renderSlackMessage(message: Message): SlackPayload {
  if (typeof message === 'string') {
    const text = toMrkdwn(message);
    check('message text', 'text', text);
    return { text };
  }
  if (isCard(message)) return renderCard(message);
  return { ...message.extra, text: message.text };
}

/**
 * A neutral form as a modal view: `callback_id` the form id, one input block per field whose
 * `block_id` and `action_id` are the field id (so errors and values key on it).
 */
export function renderSlackForm(form: Form): Record<string, unknown> {
  check('callback_id', 'form.id', form.id);
  check('modal title', 'form.title', form.title);
  const submit = form.submitLabel ?? 'Submit';
  check('modal submit text', 'form.submitLabel', submit);
  count('blocks per modal', 'form.fields', form.fields.length);
  const blocks = form.fields.map((field, i) => {
    const path = `form.fields[${i}]`;
    check('block_id', `${path}.id`, field.id);
    check('input label', `${path}.label`, field.label);
    const element =
      field.type === 'text'
        ? textInput(field, path)
        : renderSelect(field.id, field.options, field.placeholder, field.initial, path);
    return {
      type: 'input',
      block_id: field.id,
      label: plain(field.label),
      optional: field.optional === true,
      element,
    };
  });
  return {
    type: 'modal',
    callback_id: form.id,
    title: plain(form.title),
    submit: plain(submit),
    close: plain('Cancel'),
    blocks,
  };
}

function textInput(field: Extract<Form['fields'][number], { type: 'text' }>, path: string): Block {
  check('action_id', `${path}.id`, field.id);
  check('placeholder', `${path}.placeholder`, field.placeholder);
  check('text input length', `${path}.initial`, field.initial);
  if (field.maxLength !== undefined) {
    count('text input length', `${path}.maxLength`, field.maxLength);
  }
  return {
    type: 'plain_text_input',
    action_id: field.id,
    multiline: field.multiline === true,
    ...(field.placeholder !== undefined ? { placeholder: plain(field.placeholder) } : {}),
    ...(field.initial !== undefined ? { initial_value: field.initial } : {}),
    ...(field.minLength !== undefined ? { min_length: field.minLength } : {}),
    ...(field.maxLength !== undefined ? { max_length: field.maxLength } : {}),
  };
}

/** A form submit's errors as the `view_submission` answer (errors keyed by block id = field id). */
export function slackFormErrors(errors: FormErrors): Record<string, unknown> {
  return { response_action: 'errors', errors: { ...errors.errors } };
}
