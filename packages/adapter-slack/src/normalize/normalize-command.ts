import { SlackRequestError } from '../errors.js';
import type { SlackSlashCommand } from '../parse/payload-types.js';
import { installationOfCommand, tenantOf } from './installation.js';
import { type NormalizeContext, type Normalized, textOf } from './normalized.js';

/**
 * Normalises a slash command to kind `command` (`command` without its slash, `text` the
 * arguments). Id: `trigger_id` (unique per invocation; Slack never redelivers commands). Throws
 * `SlackRequestError` when the form has no trigger id or no team.
 */
export function normalizeCommand(body: SlackSlashCommand, ctx: NormalizeContext): Normalized {
  const tenant = tenantOf(installationOfCommand(body));
  if (tenant === undefined) throw new SlackRequestError('slash command names no team');
  const id = textOf(body.trigger_id);
  if (id === undefined) throw new SlackRequestError('slash command has no trigger_id');
  return {
    type: 'event',
    event: {
      adapter: ctx.adapter,
      tenant,
      id,
      kind: 'command',
      shape: 'slash_command',
      type: 'slash_command',
      channel: textOf(body.channel_id),
      user: textOf(body.user_id),
      text: body.text ?? '',
      command: body.command.replace(/^\//, ''),
      retry: ctx.retry,
      receivedAt: ctx.receivedAt,
      payload: body,
    },
  };
}
