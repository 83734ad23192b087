import type { SlackView } from '../parse/payload-types.js';

/**
 * Value of the placeholder option answered to a `block_suggestion` when the app is busy. The
 * adapter never dispatches a choice of it: a `block_actions` selecting it is acknowledged and
 * dropped, a `view_submission` carrying it is answered with an error on an input block (the one
 * holding it when it is one), or a pushed busy view when the modal has no input block.
 */
export const BUSY_OPTION_VALUE = 'rt:busy';

/** Slack's limit on option labels and modal section text. */
const OPTION_LABEL_MAX = 75;
const SECTION_TEXT_MAX = 3000;

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A small modal telling the user to try again (pushed over the user's modal, or opened). */
export function busyView(text: string): Record<string, unknown> {
  return {
    type: 'modal',
    title: { type: 'plain_text', text: 'Please try again' },
    close: { type: 'plain_text', text: 'Close' },
    blocks: [
      { type: 'section', text: { type: 'plain_text', text: truncate(text, SECTION_TEXT_MAX) } },
    ],
  };
}

/** The single placeholder option of a busy `block_suggestion` answer. */
export function busyOption(text: string): Record<string, unknown> {
  return {
    text: { type: 'plain_text', text: truncate(text, OPTION_LABEL_MAX) },
    value: BUSY_OPTION_VALUE,
  };
}

function inputBlockIds(view: SlackView | undefined): string[] {
  const ids: string[] = [];
  for (const block of view?.blocks ?? []) {
    if (block.type === 'input' && typeof block.block_id === 'string' && block.block_id.length > 0) {
      ids.push(block.block_id);
    }
  }
  return ids;
}

/** The `block_id` of the view's first input block, if any (errors can only be shown on one). */
export function firstInputBlockId(view: SlackView | undefined): string | undefined {
  return inputBlockIds(view)[0];
}

function holdsBusyOption(element: unknown): boolean {
  if (typeof element !== 'object' || element === null) return false;
  const { selected_option: one, selected_options: many } = element as {
    selected_option?: { value?: unknown } | null;
    selected_options?: readonly { value?: unknown }[] | null;
  };
  if (one?.value === BUSY_OPTION_VALUE) return true;
  return Array.isArray(many) && many.some((option) => option?.value === BUSY_OPTION_VALUE);
}

/**
 * Where to show the error when a submitted view holds the busy placeholder option: `undefined`
 * when it holds none; else `{ blockId }` with the input block holding it, or the view's first input
 * block when it is held elsewhere (a section accessory or an actions block, where Slack cannot
 * show an error), or `blockId: undefined` when the view has no input block at all.
 */
export function busyOptionTarget(
  view: SlackView | undefined,
): { readonly blockId: string | undefined } | undefined {
  const holding = Object.entries(view?.state?.values ?? {})
    .filter(([, actions]) => Object.values(actions).some(holdsBusyOption))
    .map(([blockId]) => blockId);
  if (holding.length === 0) return undefined;
  const inputs = inputBlockIds(view);
  return { blockId: holding.find((id) => inputs.includes(id)) ?? inputs[0] };
}
