/**
 * The Slack payload shapes the adapter tells apart. Each becomes `RtEvent.shape` and selects a row
 * of the shape-aware response table (docs/contract.md §9.1).
 */
export const SLACK_SHAPES = [
  'event_callback',
  'slash_command',
  'block_actions',
  'message_action',
  'shortcut',
  'view_submission',
  'view_closed',
  'block_suggestion',
] as const;

/** The shapes of interactivity payloads: every shape but the Events API's and slash commands'. */
export const INTERACTIVE_SHAPES: readonly SlackShape[] = SLACK_SHAPES.filter(
  (shape) => shape !== 'event_callback' && shape !== 'slash_command',
);

/** A dispatchable Slack payload shape. */
export type SlackShape = (typeof SLACK_SHAPES)[number];

/** True when `value` names a dispatchable Slack shape. */
export function isSlackShape(value: unknown): value is SlackShape {
  return typeof value === 'string' && (SLACK_SHAPES as readonly string[]).includes(value);
}
