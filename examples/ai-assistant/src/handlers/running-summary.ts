/**
 * The thread's running summary, kept in fenced thread state (docs/conversations.md): the last
 * turns of the conversation, bounded well below thread state's 16 KiB.
 */

/** The thread's state: a short running summary and how many turns it covers. */
export interface RunningSummary {
  readonly summary: string;
  readonly turns: number;
}

/** The summary keeps the last this many characters. */
export const SUMMARY_CHARS = 2_000;

/** `current` with one more turn (`who` asked `text`), trimmed to its last `SUMMARY_CHARS`. */
export function appendTurn(
  current: RunningSummary | undefined,
  who: string,
  text: string,
): RunningSummary {
  const line = `${who}: ${text.replace(/\s+/g, ' ').trim()}`;
  const summary = current === undefined ? line : `${current.summary}\n${line}`;
  return { summary: summary.slice(-SUMMARY_CHARS), turns: (current?.turns ?? 0) + 1 };
}
