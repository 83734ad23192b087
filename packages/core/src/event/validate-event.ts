import { InvalidEventError } from '../errors.js';
import { isKeyOfInstallation, MAX_MARK_KEYS } from '../state/mark-keys.js';
import { installationPart, keyPart } from '../util/key-part.js';
import type { EventKind, RtEvent } from './event.js';

const KINDS: ReadonlySet<EventKind> = new Set<EventKind>([
  'message',
  'mention',
  'command',
  'action',
  'form_submit',
  'form_close',
  'shortcut',
  'suggestion',
  'reaction',
  'raw',
]);

function nonEmpty(event: RtEvent, field: 'adapter' | 'tenant' | 'id' | 'shape'): void {
  const value: unknown = event[field];
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidEventError(`event.${field} must be a non-empty string`);
  }
}

/** Throws `InvalidEventError` unless `event` honours the event contract adapters must meet. */
export function validateEvent(event: RtEvent): void {
  if (typeof event !== 'object' || event === null) {
    throw new InvalidEventError('event must be an object');
  }
  nonEmpty(event, 'adapter');
  nonEmpty(event, 'tenant');
  nonEmpty(event, 'id');
  nonEmpty(event, 'shape');
  if (!KINDS.has(event.kind))
    throw new InvalidEventError(`unknown event.kind "${String(event.kind)}"`);
  if (typeof event.receivedAt !== 'number' || !Number.isFinite(event.receivedAt)) {
    throw new InvalidEventError('event.receivedAt must be a finite number of epoch milliseconds');
  }
  const ttl: unknown = event.dedupeTtlMs;
  if (ttl !== undefined && !(Number.isSafeInteger(ttl) && (ttl as number) >= 0)) {
    throw new InvalidEventError(
      `event.dedupeTtlMs must be an integer >= 0 when set, got ${String(ttl)}`,
    );
  }
  if (event.direct !== undefined && typeof event.direct !== 'boolean') {
    throw new InvalidEventError(
      `event.direct must be a boolean when set, got ${String(event.direct)}`,
    );
  }
  if (event.fallbackKind !== undefined && !KINDS.has(event.fallbackKind)) {
    throw new InvalidEventError(`unknown event.fallbackKind "${String(event.fallbackKind)}"`);
  }
  if (event.aliases !== undefined) validateAliases(event);
  for (const flag of ['threadRoot', 'endsThread'] as const) {
    const value: unknown = event[flag];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new InvalidEventError(`event.${flag} must be a boolean when set`);
    }
  }
  if (event.endsThread === true && event.thread === undefined) {
    throw new InvalidEventError('event.endsThread needs event.thread: the thread that ends');
  }
}

/**
 * `aliases`: an array of at most `MAX_MARK_KEYS - 1` distinct mark keys, each naming the event's
 * own installation (`<kind>:<adapter>:<tenant>:<id>`, as `installationMarkKey` builds it) with a
 * kind other than `event`, so none can be the primary key.
 */
function validateAliases(event: RtEvent): void {
  const aliases: unknown = event.aliases;
  if (!Array.isArray(aliases)) {
    throw new InvalidEventError('event.aliases must be an array of mark keys when set');
  }
  if (aliases.length > MAX_MARK_KEYS - 1) {
    throw new InvalidEventError(
      `event.aliases holds at most ${MAX_MARK_KEYS - 1} keys, got ${aliases.length}`,
    );
  }
  // The installation part of the event's own mark key (`dedupeKeyOf`), built directly.
  const installation = installationPart(event.adapter, event.tenant);
  for (let index = 0; index < aliases.length; index += 1) {
    const alias: unknown = aliases[index];
    if (typeof alias !== 'string' || !isKeyOfInstallation(alias, installation)) {
      throw new InvalidEventError(
        `event.aliases[${index}] must be a mark key of the event's installation ` +
          '(installationMarkKey(kind, adapter, tenant, id))',
      );
    }
    if (alias.startsWith('event:')) {
      throw new InvalidEventError(`event.aliases[${index}] must not be of kind "event"`);
    }
    // At most 15 keys: comparing with the earlier ones is cheaper than a Set per delivery.
    if (aliases.indexOf(alias) < index) {
      throw new InvalidEventError(`event.aliases[${index}] repeats a key`);
    }
  }
}

/** The dedupe key of an event's identity `(adapter, tenant, id)`, unambiguous for any strings. */
export function dedupeKeyOf(event: RtEvent): string {
  return `event:${installationPart(event.adapter, event.tenant)}:${keyPart(event.id)}`;
}
