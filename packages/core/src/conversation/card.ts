import { checkId, checkText } from './ids.js';

/**
 * The neutral card (docs/messages.md): a header, then elements in order. Plain frozen objects:
 * build them with the functions below or write them literally. Text in `section`, `fields` values
 * and `context` is the markdown subset (`markdown.ts`); labels, titles and option texts are plain.
 * Adapters render a card (Slack Block Kit, Discord Components V2) after checking every platform
 * limit (`MessageLimitError` naming the limit and the element's path, nothing sent).
 */
export interface Card {
  readonly type: 'card';
  /** The header line (Slack header block, Discord a `## ` heading). Plain text. */
  readonly title?: string;
  readonly children: readonly CardElement[];
  /** Notification text (push, unfurls, screen readers). Default: the title and first section. */
  readonly fallback?: string;
  /** Platform fields merged into the rendered message (the escape hatch). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A paragraph of markdown-subset text. */
export interface SectionElement {
  readonly type: 'section';
  readonly text: string;
}

/** Label/value pairs shown side by side where the platform can (values are markdown). */
export interface FieldsElement {
  readonly type: 'fields';
  readonly fields: readonly { readonly label: string; readonly value: string }[];
}

/** An image by public URL, with its alt text. */
export interface ImageElement {
  readonly type: 'image';
  readonly url: string;
  readonly alt: string;
}

/** A horizontal rule. */
export interface DividerElement {
  readonly type: 'divider';
}

/** A small, muted line of markdown-subset text. */
export interface ContextElement {
  readonly type: 'context';
  readonly text: string;
}

/** A row of interactive elements. */
export interface ActionsElement {
  readonly type: 'actions';
  readonly elements: readonly ActionElement[];
}

/** A button: a click reaches `onAction(id)` with `event.value` set to `value`. */
export interface ButtonElement {
  readonly type: 'button';
  readonly id: string;
  readonly label: string;
  readonly value?: string;
  readonly style?: 'primary' | 'danger';
}

/** A button that opens `url` (no event). */
export interface LinkButtonElement {
  readonly type: 'link_button';
  readonly url: string;
  readonly label: string;
}

/** One choice of a select. */
export interface SelectOption {
  readonly label: string;
  readonly value: string;
  readonly description?: string;
}

/** A single-choice menu: a choice reaches `onAction(id)` with `event.value` the option's value. */
export interface SelectElement {
  readonly type: 'select';
  readonly id: string;
  readonly options: readonly SelectOption[];
  readonly placeholder?: string;
  /** The value of the option selected at first. */
  readonly initial?: string;
}

/** Anything a card can hold. */
export type CardElement =
  | SectionElement
  | FieldsElement
  | ImageElement
  | DividerElement
  | ContextElement
  | ActionsElement;

/** Anything an actions row can hold. */
export type ActionElement = ButtonElement | LinkButtonElement | SelectElement;

/** A card; `children` may be passed as rest arguments after the options. */
export function card(
  options: Omit<Card, 'type' | 'children'> & { readonly children?: readonly CardElement[] },
  ...children: CardElement[]
): Card {
  if (options.title !== undefined) checkText(options.title, 'card title');
  return Object.freeze({
    ...options,
    type: 'card',
    children: [...(options.children ?? []), ...children],
  });
}

/** A section of markdown-subset text. */
export function section(text: string): SectionElement {
  return Object.freeze({ type: 'section', text: checkText(text, 'section text') });
}

/** Label/value pairs, from an object (`{ Status: 'open' }`) or a list of pairs. */
export function fields(
  pairs: Readonly<Record<string, string>> | readonly { label: string; value: string }[],
): FieldsElement {
  const list = Array.isArray(pairs)
    ? pairs
    : Object.entries(pairs).map(([label, value]) => ({ label, value }));
  return Object.freeze({ type: 'fields', fields: list });
}

/** An image; `alt` is required (screen readers, and Slack rejects an image without it). */
export function image(url: string, alt: string): ImageElement {
  return Object.freeze({
    type: 'image',
    url: checkText(url, 'image url'),
    alt: checkText(alt, 'image alt'),
  });
}

/** A divider. */
export function divider(): DividerElement {
  return Object.freeze({ type: 'divider' });
}

/** A context line. */
export function context(text: string): ContextElement {
  return Object.freeze({ type: 'context', text: checkText(text, 'context text') });
}

/** A row of buttons, link buttons and selects. */
export function actions(...elements: ActionElement[]): ActionsElement {
  return Object.freeze({ type: 'actions', elements });
}

/** A button; `options.value` comes back as `event.value`. */
export function button(
  id: string,
  label: string,
  options: { readonly value?: string; readonly style?: 'primary' | 'danger' } = {},
): ButtonElement {
  return Object.freeze({
    type: 'button',
    id: checkId(id, 'button id'),
    label: checkText(label, 'button label'),
    ...options,
  });
}

/** A link button. */
export function linkButton(url: string, label: string): LinkButtonElement {
  return Object.freeze({
    type: 'link_button',
    url: checkText(url, 'link url'),
    label: checkText(label, 'link label'),
  });
}

/** A select option. */
export function option(label: string, value: string, description?: string): SelectOption {
  return Object.freeze({
    label: checkText(label, 'option label'),
    value: checkText(value, 'option value'),
    ...(description !== undefined ? { description } : {}),
  });
}

/** A single-choice select. */
export function select(
  id: string,
  options: readonly SelectOption[],
  settings: { readonly placeholder?: string; readonly initial?: string } = {},
): SelectElement {
  return Object.freeze({ type: 'select', id: checkId(id, 'select id'), options, ...settings });
}
