import type { EventKind, RtEvent } from '../event/event.js';

/** A text or id pattern: a string matches exactly (ids) or as a substring (message text). */
export type Pattern = string | RegExp;

/** Restricts a route to one adapter's events. */
interface RouteBase {
  readonly adapter?: string;
}

/**
 * Restricts a `message` or `mention` route by conversation: `true` only direct conversations
 * (`RtEvent.direct`), `false` only the others; unset, both.
 */
interface ConversationFilter {
  readonly direct?: boolean;
}

/**
 * What a handler is registered for. Kinds match `RtEvent.kind` and each kind's id field
 * (`actionId`, `shortcutId`, `formId`, command `name`; a string matches exactly, a RegExp by
 * test); `raw` matches the platform's inner event type whatever the kind; a function matches
 * whatever it returns `true` for. docs/events.md maps platform payloads to kinds.
 */
export type Route =
  | (RouteBase & ConversationFilter & { readonly kind: 'mention' })
  | (RouteBase & ConversationFilter & { readonly kind: 'message'; readonly text?: Pattern })
  | (RouteBase & { readonly kind: 'command'; readonly name: string })
  | (RouteBase & { readonly kind: 'action'; readonly actionId: Pattern })
  | (RouteBase & { readonly kind: 'suggestion'; readonly actionId: Pattern })
  | (RouteBase & { readonly kind: 'shortcut'; readonly shortcutId: Pattern })
  | (RouteBase & { readonly kind: 'form_submit'; readonly formId: Pattern })
  | (RouteBase & { readonly kind: 'form_close'; readonly formId?: Pattern })
  | (RouteBase & { readonly kind: 'reaction'; readonly name?: string })
  | (RouteBase & { readonly kind: 'raw'; readonly type: string })
  /**
   * A plain message in a subscribed thread (`onSubscribedMessage`; docs/conversations.md). Matched
   * only by the runtime's subscription check, never by `routeMatches`.
   */
  | (RouteBase & { readonly kind: 'subscribed_message' })
  | ((event: RtEvent) => boolean);

function matchesId(pattern: Pattern, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (typeof pattern === 'string') return pattern === value;
  pattern.lastIndex = 0;
  return pattern.test(value);
}

function matchesText(pattern: Pattern, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (typeof pattern === 'string') return value.includes(pattern);
  pattern.lastIndex = 0;
  return pattern.test(value);
}

function matchesConversation(route: ConversationFilter, event: RtEvent): boolean {
  return route.direct === undefined || route.direct === (event.direct === true);
}

function normaliseCommand(name: string): string {
  return name.startsWith('/') ? name.slice(1) : name;
}

/** True when `route` selects `event`. A throwing predicate route counts as no match. */
export function routeMatches(route: Route, event: RtEvent): boolean {
  if (typeof route === 'function') {
    try {
      return route(event) === true;
    } catch {
      return false;
    }
  }
  if (route.adapter !== undefined && route.adapter !== event.adapter) return false;
  if (route.kind === 'raw') return event.type === route.type;
  if (route.kind === 'subscribed_message') return false;
  if (route.kind !== (event.kind as EventKind)) return false;
  switch (route.kind) {
    case 'mention':
      return matchesConversation(route, event);
    case 'message':
      return (
        matchesConversation(route, event) &&
        (route.text === undefined || matchesText(route.text, event.text))
      );
    case 'command':
      return (
        event.command !== undefined &&
        normaliseCommand(route.name) === normaliseCommand(event.command)
      );
    case 'action':
    case 'suggestion':
      return matchesId(route.actionId, event.actionId);
    case 'shortcut':
      return matchesId(route.shortcutId, event.shortcutId);
    case 'form_submit':
      return matchesId(route.formId, event.formId);
    case 'form_close':
      return route.formId === undefined || matchesId(route.formId, event.formId);
    case 'reaction':
      return route.name === undefined || route.name === event.type || route.name === event.text;
  }
}

/** Rejects malformed routes at registration time with a `TypeError` naming the problem. */
export function validateRoute(route: Route): void {
  if (typeof route === 'function') return;
  if (typeof route !== 'object' || route === null) {
    throw new TypeError('route must be an object or a predicate function');
  }
  const needs = (field: string, value: unknown) => {
    if (!(typeof value === 'string' ? value.length > 0 : value instanceof RegExp)) {
      throw new TypeError(`route of kind "${route.kind}" needs a non-empty ${field}`);
    }
  };
  switch (route.kind) {
    case 'command':
      needs('name', route.name);
      break;
    case 'action':
    case 'suggestion':
      needs('actionId', route.actionId);
      break;
    case 'shortcut':
      needs('shortcutId', route.shortcutId);
      break;
    case 'form_submit':
      needs('formId', route.formId);
      break;
    case 'raw':
      needs('type', route.type);
      break;
    case 'mention':
    case 'message':
      if (route.direct !== undefined && typeof route.direct !== 'boolean') {
        throw new TypeError(`route of kind "${route.kind}" needs direct to be a boolean when set`);
      }
      break;
    case 'form_close':
    case 'reaction':
    case 'subscribed_message':
      break;
    default:
      throw new TypeError(`unknown route kind "${(route as { kind: unknown }).kind}"`);
  }
}
