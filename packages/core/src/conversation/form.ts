import type { SelectOption } from './card.js';
import { checkId, checkText } from './ids.js';

/**
 * A neutral form (docs/messages.md), opened with `ctx.openForm(form)`: a Slack modal view, a
 * Discord modal. Its submit reaches `onFormSubmit(id)` with `event.values` keyed by field id: a
 * text field's text (`''` when left empty), a select's chosen value (`''` when none).
 */
export interface Form {
  readonly type: 'form';
  readonly id: string;
  readonly title: string;
  /** Submit button label (Slack; Discord's is fixed). Default `Submit`. */
  readonly submitLabel?: string;
  readonly fields: readonly FormField[];
}

/** A short (one line) or paragraph text input. */
export interface TextField {
  readonly type: 'text';
  readonly id: string;
  readonly label: string;
  readonly multiline?: boolean;
  readonly placeholder?: string;
  readonly initial?: string;
  readonly optional?: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
}

/** A single-choice select field. */
export interface SelectField {
  readonly type: 'select';
  readonly id: string;
  readonly label: string;
  readonly options: readonly SelectOption[];
  readonly placeholder?: string;
  readonly initial?: string;
  readonly optional?: boolean;
}

/** A form field. */
export type FormField = TextField | SelectField;

/** A form. Field ids must be unique (`TypeError` otherwise). */
export function form(options: Omit<Form, 'type'>): Form {
  checkId(options.id, 'form id');
  checkText(options.title, 'form title');
  const seen = new Set<string>();
  for (const field of options.fields) {
    if (seen.has(field.id)) throw new TypeError(`form field id "${field.id}" is used twice`);
    seen.add(field.id);
  }
  return Object.freeze({ ...options, type: 'form' });
}

/** A text field; `multiline: true` for a paragraph. */
export function textField(
  id: string,
  label: string,
  options: Omit<TextField, 'type' | 'id' | 'label'> = {},
): TextField {
  return Object.freeze({
    type: 'text',
    id: checkId(id, 'field id'),
    label: checkText(label, 'field label'),
    ...options,
  });
}

/** A select field. */
export function selectField(
  id: string,
  label: string,
  options: readonly SelectOption[],
  settings: Omit<SelectField, 'type' | 'id' | 'label' | 'options'> = {},
): SelectField {
  return Object.freeze({
    type: 'select',
    id: checkId(id, 'field id'),
    label: checkText(label, 'field label'),
    options,
    ...settings,
  });
}

/** What a form submit handler returns to reject the input, by field id. */
export interface FormErrors {
  readonly type: 'form_errors';
  readonly errors: Readonly<Record<string, string>>;
}

/**
 * Return it from an `onFormSubmit` handler to keep the form open with these messages: Slack shows
 * each under its field (`response_action: errors`); Discord, which cannot keep a modal open, shows
 * them in an ephemeral message to the submitter.
 */
export function formErrors(errors: Readonly<Record<string, string>>): FormErrors {
  if (Object.keys(errors).length === 0) throw new TypeError('formErrors needs at least one error');
  return Object.freeze({ type: 'form_errors', errors: { ...errors } });
}

/** True when `value` is a `FormErrors` (a handler's return value). */
export function isFormErrors(value: unknown): value is FormErrors {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'form_errors' &&
    typeof (value as { errors?: unknown }).errors === 'object'
  );
}
