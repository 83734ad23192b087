/**
 * `/feedback`, on either platform: opens a form (a Slack modal, a Discord modal), and its submit
 * gets the same `event.values` on both. A too-short summary keeps the form open on Slack with the
 * error under the field, and is shown ephemerally on Discord; a good one is thanked in a DM.
 */
import {
  escapeText,
  type FormErrors,
  form,
  formErrors,
  type HandlerContext,
  option,
  selectField,
  textField,
} from '@rt/core';

/** The command's name on both platforms. */
export const FEEDBACK_COMMAND = 'feedback';
/** The form's id (`onFormSubmit(FEEDBACK_FORM)`). */
export const FEEDBACK_FORM = 'feedback-form';

/** The feedback form. */
export const feedbackForm = form({
  id: FEEDBACK_FORM,
  title: 'Feedback',
  submitLabel: 'Send',
  fields: [
    textField('summary', 'Summary', { placeholder: 'One line', maxLength: 100 }),
    textField('details', 'Details', { multiline: true, optional: true }),
    selectField('mood', 'How do you feel?', [option('Happy', 'happy'), option('Meh', 'meh')], {
      initial: 'happy',
    }),
  ],
});

/** Handler of `/feedback`. */
export async function onFeedbackCommand(ctx: HandlerContext): Promise<void> {
  await ctx.openForm(feedbackForm);
}

/** Handler of the form's submit: errors keep it open, else a thank-you DM. */
export async function onFeedbackSubmit(ctx: HandlerContext): Promise<FormErrors | undefined> {
  const summary = ctx.event.values?.summary ?? '';
  if (summary.trim().length < 3)
    return formErrors({ summary: 'Please write at least 3 characters.' });
  if (ctx.event.user !== undefined) {
    await ctx.dm(ctx.event.user, `Thanks for your feedback: _${escapeText(summary)}_`);
  }
  return undefined;
}
