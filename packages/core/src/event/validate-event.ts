import { InvalidEventError } from '../errors.js';
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
}

/** The dedupe key of an event's identity `(adapter, tenant, id)`, unambiguous for any strings. */
export function dedupeKeyOf(event: RtEvent): string {
  return `event:${encodeURIComponent(event.adapter)}:${encodeURIComponent(event.tenant)}:${encodeURIComponent(event.id)}`;
}
