/**
 * The bot's application commands, as `PUT /applications/{id}/commands` takes them
 * (`pnpm register` sends them). Names here and in the handlers must match.
 */
export const ASK_COMMAND = 'ask';
export const FEEDBACK_COMMAND = 'feedback';
export const TOPIC_OPTION = 'topic';
export const HELPFUL_BUTTON = 'helpful';
export const FEEDBACK_MODAL = 'feedback-form';
export const FEEDBACK_FIELD = 'comment';

/** Topics `/ask` completes. */
export const TOPICS = ['admission', 'deadlines', 'dedupe', 'locks', 'shutdown', 'strategies'];

export const COMMANDS = [
  {
    name: ASK_COMMAND,
    type: 1,
    description: 'Ask the bot about an rt topic',
    options: [
      {
        name: TOPIC_OPTION,
        description: 'What to ask about',
        type: 3,
        required: true,
        autocomplete: true,
      },
    ],
  },
  { name: FEEDBACK_COMMAND, type: 1, description: 'Tell us what you think' },
] as const;
