import type { RtEvent } from '../event/event.js';
import type { Handler } from './handler.js';
import { type Route, routeMatches, validateRoute } from './route.js';

/**
 * Handler registry. `match` returns every handler whose route selects the event, in registration
 * order; the runtime runs them one after another for one delivery.
 */
export class Router {
  readonly #entries: { route: Route; handler: Handler }[] = [];
  /** How many of the entries are `subscribed_message` routes. */
  #subscribed = 0;

  /** Registers `handler` for `route`. Returns a function that unregisters it. */
  add(route: Route, handler: Handler): () => void {
    validateRoute(route);
    if (typeof handler !== 'function') throw new TypeError('handler must be a function');
    const entry = { route, handler };
    this.#entries.push(entry);
    if (isSubscribedRoute(route)) this.#subscribed += 1;
    return () => {
      const index = this.#entries.indexOf(entry);
      if (index < 0) return;
      this.#entries.splice(index, 1);
      if (isSubscribedRoute(route)) this.#subscribed -= 1;
    };
  }

  /** True when some `subscribed_message` route is registered (the subscription check runs). */
  get hasSubscribedRoutes(): boolean {
    return this.#subscribed > 0;
  }

  /**
   * The `subscribed_message` handlers for `event` (a plain message in a subscribed thread), in
   * registration order, honouring a route's `adapter`.
   */
  matchSubscribed(event: RtEvent): Handler[] {
    const handlers: Handler[] = [];
    for (const { route, handler } of this.#entries) {
      if (!isSubscribedRoute(route)) continue;
      if (route.adapter === undefined || route.adapter === event.adapter) handlers.push(handler);
    }
    return handlers;
  }

  /** Handlers selected by `event`, in registration order (empty when unrouted). */
  match(event: RtEvent): Handler[] {
    const handlers: Handler[] = [];
    for (const entry of this.#entries) {
      if (routeMatches(entry.route, event)) handlers.push(entry.handler);
    }
    return handlers;
  }
}

function isSubscribedRoute(
  route: Route,
): route is Extract<Route, { readonly kind: 'subscribed_message' }> {
  return typeof route === 'object' && route.kind === 'subscribed_message';
}
