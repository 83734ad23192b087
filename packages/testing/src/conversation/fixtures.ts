import {
  actions,
  bold,
  button,
  type Card,
  card,
  context,
  divider,
  type Form,
  fields,
  form,
  image,
  link,
  linkButton,
  mentionUser,
  option,
  section,
  select,
  selectField,
  textField,
} from '@rt/core';

/**
 * One card holding every neutral element kind (header, section with markup and a mention, field
 * pairs, image, divider, context, and an actions row with a primary and a danger button, a link
 * button and a select with an initial option): the input of every renderer's golden test.
 */
export const EVERY_ELEMENT_CARD: Card = card(
  { title: 'Deploy v2', fallback: 'Deploy v2 is ready' },
  section(
    `${bold('Ready')} to ship, ${mentionUser('U1')}? ${link('https://ci.example/1', 'build')}`,
  ),
  fields({ Env: 'prod', Owner: mentionUser('U2') }),
  image('https://img.example/chart.png', 'Error rate chart'),
  divider(),
  context('_Requested 2 min ago_'),
  actions(
    button('ship', 'Ship', { value: 'v2', style: 'primary' }),
    button('cancel', 'Cancel', { style: 'danger' }),
    linkButton('https://ci.example/1', 'Open CI'),
    select('env', [option('Production', 'prod', 'live traffic'), option('Staging', 'stage')], {
      placeholder: 'Environment',
      initial: 'stage',
    }),
  ),
);

/** One form holding every neutral field kind (short, paragraph and optional text; a select). */
export const EVERY_FIELD_FORM: Form = form({
  id: 'feedback',
  title: 'Feedback',
  submitLabel: 'Send',
  fields: [
    textField('title', 'Title', { placeholder: 'One line', initial: 'Hi', maxLength: 80 }),
    textField('body', 'Details', { multiline: true, optional: true, minLength: 2 }),
    selectField('mood', 'Mood', [option('Good', 'good'), option('Bad', 'bad')], {
      initial: 'good',
    }),
  ],
});
