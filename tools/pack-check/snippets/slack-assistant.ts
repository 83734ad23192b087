/**
 * The program the Slack assistant fragment runs in: the Slack app's `signingSecret` and
 * `botToken`, the AI SDK's `streamText` and a language `model` (OpenAI's, as in the streaming
 * guide's first example). The fragment creates the adapter, the runtime and the routes.
 */

import { openai } from '@ai-sdk/openai';
import { streamText } from 'ai';

const signingSecret = process.env.SLACK_SIGNING_SECRET ?? 'signing-secret';
const botToken = process.env.SLACK_BOT_TOKEN ?? 'xoxb-token';
const model = openai('gpt-4o-mini');

/* fragment */

export { botToken, model, signingSecret, streamText };
