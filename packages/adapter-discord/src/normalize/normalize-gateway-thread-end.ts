import { tenantOf } from './installation.js';
import type { GatewayNormalizeContext, GatewayNormalized } from './normalize-gateway-message.js';

/** The fields of a THREAD_UPDATE or THREAD_DELETE payload this reads. */
interface ThreadPayload {
  readonly id?: unknown;
  readonly guild_id?: unknown;
  readonly parent_id?: unknown;
  readonly thread_metadata?: { readonly archived?: unknown; readonly archive_timestamp?: unknown };
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/**
 * The end of a thread (docs/conversations.md): THREAD_DELETE, or THREAD_UPDATE with
 * `thread_metadata.archived` true, becomes a `raw` event (`shape` `gateway_dispatch`, `type` the
 * dispatch name) with `endsThread`, `thread` the thread's id and `channel` its `parent_id`, so the
 * runtime ends the thread's subscription before routing it (`onEvent('THREAD_DELETE')` sees it
 * too). Identity: `<t>:<thread id>` (THREAD_UPDATE adds its `archive_timestamp`, so a later
 * archive of the same thread is a new event). Any other THREAD_UPDATE is `undefined`: not a thread
 * end (it may still be dispatched raw through `rawDispatches`). Needs the `Guilds` intent (on by
 * default).
 */
export function normalizeGatewayThreadEnd(
  t: 'THREAD_UPDATE' | 'THREAD_DELETE',
  d: unknown,
  ctx: GatewayNormalizeContext,
): GatewayNormalized<unknown> | undefined {
  if (typeof d !== 'object' || d === null) return undefined;
  const data = d as ThreadPayload;
  const thread = text(data.id);
  if (thread === undefined) return undefined;
  if (t === 'THREAD_UPDATE' && data.thread_metadata?.archived !== true) return undefined;
  const guildId = text(data.guild_id);
  const channel = text(data.parent_id);
  const stamp =
    t === 'THREAD_UPDATE' ? `:${text(data.thread_metadata?.archive_timestamp) ?? ''}` : '';
  return {
    type: 'event',
    event: {
      adapter: ctx.adapter,
      tenant: tenantOf({
        applicationId: ctx.applicationId,
        ...(guildId !== undefined ? { guildId } : {}),
      }),
      id: `${t}:${thread}${stamp}`,
      kind: 'raw',
      shape: 'gateway_dispatch',
      type: t,
      ...(channel !== undefined ? { channel } : {}),
      thread,
      endsThread: true,
      receivedAt: ctx.receivedAt,
      payload: d,
    },
  };
}
