import { modalResponse, modalValuesOf } from '@rt/adapter-discord';
import type { Handler } from '@rt/core';
import { FEEDBACK_FIELD, FEEDBACK_MODAL } from '../commands.js';

/**
 * `/feedback`, sync (it is in the adapter's `syncCommands`): a modal can only be the first answer,
 * so the handler returns it (type 9) instead of replying.
 */
export const feedbackCommand: Handler = () =>
  modalResponse({
    custom_id: FEEDBACK_MODAL,
    title: 'Feedback',
    components: [
      {
        type: 1,
        components: [
          {
            type: 4,
            custom_id: FEEDBACK_FIELD,
            style: 2,
            label: 'What do you think?',
            required: true,
            max_length: 1000,
          },
        ],
      },
    ],
  });

/** The submitted modal, deferred (type 5, ephemeral: see `createBot`): thanks the user. */
export const feedbackSubmitted: Handler = async (ctx) => {
  const comment = String(modalValuesOf(ctx.event)[FEEDBACK_FIELD] ?? '');
  await ctx.reply(`Thanks for your feedback (${comment.length} characters).`);
};
