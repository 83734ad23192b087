import type { ActionElement, Card, CardElement, Form, FormErrors, SelectOption } from '@rt/core';
import { checkLength, checkLimit, isCard, lengthOf, type Message } from '@rt/core/adapter';
import { ButtonStyle, ComponentType, MessageFlags, TextInputStyle } from 'discord-api-types/v10';
import { DISCORD_LIMITS, type DiscordLimit } from './limits.js';
import { splitText, toDiscordMarkdown } from './markdown.js';

/** A Discord message body (create, edit, follow-up, or a type 4/7 callback's `data`). */
export type DiscordBody = Record<string, unknown>;

/** Neutral messages ping the users they mention (`mentionUser`) and nobody else. */
export const NEUTRAL_ALLOWED_MENTIONS = Object.freeze({ parse: ['users'] as const });

/** Separates a button's id from its value in `custom_id` (ids never contain it). */
export const CUSTOM_ID_SEPARATOR = '|';

type Component = Record<string, unknown>;

class Budget {
  components = 0;
  text = 0;
  readonly customIds = new Set<string>();

  /** Discord wants every `custom_id` of a message unique: a repeat is the author's mistake. */
  claim(customId: unknown, path: string): void {
    if (typeof customId !== 'string') return;
    if (this.customIds.has(customId)) {
      throw new TypeError(
        `${path}: two components share the id and value ${JSON.stringify(customId)}; give them different values`,
      );
    }
    this.customIds.add(customId);
  }
}

function check(limit: DiscordLimit, path: string, text: string | undefined): void {
  checkLength('discord', limit, path, DISCORD_LIMITS[limit], text);
}

function count(limit: DiscordLimit, path: string, actual: number): void {
  checkLimit('discord', limit, path, DISCORD_LIMITS[limit], actual);
}

function textDisplay(content: string, budget: Budget): Component {
  budget.components += 1;
  budget.text += lengthOf(content);
  return { type: ComponentType.TextDisplay, content };
}

function renderOptions(
  options: readonly SelectOption[],
  initial: string | undefined,
  path: string,
): Component[] {
  count('options per select', `${path}.options`, options.length);
  return options.map((option, k) => {
    const at = `${path}.options[${k}]`;
    check('option label', `${at}.label`, option.label);
    check('option value', `${at}.value`, option.value);
    check('option description', `${at}.description`, option.description);
    return {
      label: option.label,
      value: option.value,
      ...(option.description !== undefined ? { description: option.description } : {}),
      ...(option.value === initial ? { default: true } : {}),
    };
  });
}

function renderAction(element: ActionElement, path: string): Component {
  switch (element.type) {
    case 'button': {
      const customId =
        element.value === undefined
          ? element.id
          : `${element.id}${CUSTOM_ID_SEPARATOR}${element.value}`;
      check('custom_id', element.value === undefined ? `${path}.id` : `${path}.value`, customId);
      check('button label', `${path}.label`, element.label);
      const style =
        element.style === 'primary'
          ? ButtonStyle.Primary
          : element.style === 'danger'
            ? ButtonStyle.Danger
            : ButtonStyle.Secondary;
      return { type: ComponentType.Button, style, label: element.label, custom_id: customId };
    }
    case 'link_button':
      check('button label', `${path}.label`, element.label);
      check('button url', `${path}.url`, element.url);
      return {
        type: ComponentType.Button,
        style: ButtonStyle.Link,
        label: element.label,
        url: element.url,
      };
    case 'select':
      check('custom_id', `${path}.id`, element.id);
      check('placeholder', `${path}.placeholder`, element.placeholder);
      return {
        type: ComponentType.StringSelect,
        custom_id: element.id,
        options: renderOptions(element.options, element.initial, path),
        ...(element.placeholder !== undefined ? { placeholder: element.placeholder } : {}),
      };
  }
}

/** An actions element as rows: buttons five to a row, each select on its own row (policy). */
function renderRows(elements: readonly ActionElement[], path: string, budget: Budget): Component[] {
  const rows: Component[][] = [];
  let buttons: Component[] | undefined;
  elements.forEach((element, j) => {
    const rendered = renderAction(element, `${path}.elements[${j}]`);
    budget.claim(rendered.custom_id, `${path}.elements[${j}]`);
    budget.components += 1;
    if (element.type === 'select') {
      rows.push([rendered]);
      buttons = undefined;
      return;
    }
    if (buttons === undefined || buttons.length === 5) {
      buttons = [];
      rows.push(buttons);
    }
    buttons.push(rendered);
  });
  budget.components += rows.length;
  return rows.map((components) => ({ type: ComponentType.ActionRow, components }));
}

function renderElement(element: CardElement, path: string, budget: Budget): Component[] {
  switch (element.type) {
    case 'section':
      return [textDisplay(toDiscordMarkdown(element.text), budget)];
    case 'fields':
      return [
        textDisplay(
          element.fields
            .map(
              (field) => `**${toDiscordMarkdown(field.label)}**\n${toDiscordMarkdown(field.value)}`,
            )
            .join('\n'),
          budget,
        ),
      ];
    case 'image':
      check('media description', `${path}.alt`, element.alt);
      budget.components += 1;
      return [
        {
          type: ComponentType.MediaGallery,
          items: [{ media: { url: element.url }, description: element.alt }],
        },
      ];
    case 'divider':
      budget.components += 1;
      return [{ type: ComponentType.Separator, divider: true, spacing: 1 }];
    case 'context':
      return [textDisplay(`-# ${toDiscordMarkdown(element.text)}`, budget)];
    case 'actions':
      return renderRows(element.elements, path, budget);
  }
}

/**
 * A card as a Components V2 message: one container holding a `## title` text display, then the
 * elements in order (sections and field pairs as text displays, images as media galleries,
 * dividers as separators, context lines as `-#` subtext, actions as action rows). A button's
 * value travels in its `custom_id` (`id|value`). Checks the total component count and text size.
 */
export function renderCard(card: Card): DiscordBody {
  const budget = new Budget();
  const children: Component[] = [];
  if (card.title !== undefined) children.push(textDisplay(`## ${card.title}`, budget));
  card.children.forEach((child, i) => {
    children.push(...renderElement(child, `card.children[${i}]`, budget));
  });
  budget.components += 1; // the container
  count('components per message', 'card.children', budget.components);
  count('text display characters', 'card', budget.text);
  return {
    ...card.extra,
    flags: MessageFlags.IsComponentsV2,
    components: [{ type: ComponentType.Container, components: children }],
    allowed_mentions: NEUTRAL_ALLOWED_MENTIONS,
  };
}

/**
 * A neutral message as Discord message bodies, limits checked first (`MessageLimitError`):
 * markdown text as `content`, split at paragraph boundaries into several bodies past 2000
 * characters (sent as consecutive messages); a card as one Components V2 body; `{ text, extra }`
 * passed through as `{ content: text, ...extra }` (its `content` must fit).
 */
export function renderDiscordMessage(message: Message): DiscordBody[] {
  if (typeof message === 'string') {
    const content = toDiscordMarkdown(message);
    return splitText(content, DISCORD_LIMITS['message content']).map((part) => ({
      content: part,
      allowed_mentions: NEUTRAL_ALLOWED_MENTIONS,
    }));
  }
  if (isCard(message)) return [renderCard(message)];
  check('message content', 'text', message.text);
  return [{ content: message.text, ...message.extra }];
}

/**
 * A neutral form as a modal (the `data` of a type 9 callback): `custom_id` the form id, one label
 * per field holding a text input (short or paragraph) or a string select whose `custom_id` is the
 * field id. Discord has no submit label: `submitLabel` is not shown.
 */
export function renderDiscordForm(form: Form): DiscordBody {
  check('custom_id', 'form.id', form.id);
  check('modal title', 'form.title', form.title);
  count('components per modal', 'form.fields', form.fields.length);
  const components = form.fields.map((field, i) => {
    const path = `form.fields[${i}]`;
    check('label text', `${path}.label`, field.label);
    check('custom_id', `${path}.id`, field.id);
    const required = field.optional !== true;
    let component: Component;
    if (field.type === 'text') {
      check('text input placeholder', `${path}.placeholder`, field.placeholder);
      check('text input value', `${path}.initial`, field.initial);
      if (field.maxLength !== undefined) {
        count('text input max length', `${path}.maxLength`, field.maxLength);
      }
      component = {
        type: ComponentType.TextInput,
        custom_id: field.id,
        style: field.multiline === true ? TextInputStyle.Paragraph : TextInputStyle.Short,
        required,
        ...(field.placeholder !== undefined ? { placeholder: field.placeholder } : {}),
        ...(field.initial !== undefined ? { value: field.initial } : {}),
        ...(field.minLength !== undefined ? { min_length: field.minLength } : {}),
        ...(field.maxLength !== undefined ? { max_length: field.maxLength } : {}),
      };
    } else {
      check('placeholder', `${path}.placeholder`, field.placeholder);
      component = {
        type: ComponentType.StringSelect,
        custom_id: field.id,
        options: renderOptions(field.options, field.initial, path),
        required,
        ...(field.placeholder !== undefined ? { placeholder: field.placeholder } : {}),
      };
    }
    return { type: ComponentType.Label, label: field.label, component };
  });
  return { custom_id: form.id, title: form.title, components };
}

/**
 * Form errors as an ephemeral message to the submitter (Discord cannot keep a modal open):
 * one line per field, `**field**: message`.
 */
export function discordFormErrors(errors: FormErrors): DiscordBody {
  const lines = Object.entries(errors.errors).map(
    ([field, message]) => `**${field}**: ${toDiscordMarkdown(message)}`,
  );
  return {
    content: splitText(lines.join('\n'), DISCORD_LIMITS['message content'])[0] ?? '',
    flags: MessageFlags.Ephemeral,
    allowed_mentions: { parse: [] },
  };
}

/**
 * The neutral id and value of a component's `custom_id`: `id|value` for a neutral button with a
 * value, the whole `custom_id` otherwise.
 */
export function splitCustomId(customId: string): { id: string; value?: string } {
  const at = customId.indexOf(CUSTOM_ID_SEPARATOR);
  return at === -1
    ? { id: customId }
    : { id: customId.slice(0, at), value: customId.slice(at + 1) };
}
