/**
 * Slack's documented Block Kit limits (docs.slack.dev, reference/block-kit: blocks, block
 * elements, composition objects, surfaces; chat.postMessage for `text`), checked by the renderer
 * before any call. Figures as documented in 2026; each key is the limit's name in
 * `MessageLimitError.limit`.
 */
export const SLACK_LIMITS = Object.freeze({
  /** chat.postMessage: `text` longer than this is truncated by Slack; refused here instead. */
  'message text': 40_000,
  'blocks per message': 50,
  'blocks per modal': 100,
  'header text': 150,
  'section text': 3000,
  'fields per section': 10,
  'field text': 2000,
  'context text': 3000,
  'elements per actions block': 25,
  'button text': 75,
  'button value': 2000,
  'button url': 3000,
  action_id: 255,
  block_id: 255,
  'options per select': 100,
  'option text': 75,
  'option value': 150,
  'option description': 75,
  placeholder: 150,
  'image url': 3000,
  'image alt text': 2000,
  'modal title': 24,
  'modal submit text': 24,
  callback_id: 255,
  'input label': 2000,
  'text input length': 3000,
} as const);

/** A Slack limit's name. */
export type SlackLimit = keyof typeof SLACK_LIMITS;
