import type { RtEvent } from '../event/event.js';
import type { Handler } from './handler.js';
import { type Route, routeMatches, validateRoute } from './route.js';

/**
 * Handler registry. `match` returns every handler whose route selects the event, in registration
 * order; the runtime runs them one after another for one delivery.
 */
export class Router {
  readonly #entries: { route: Route; handler: Handler }[] = [];

  /** Registers `handler` for `route`. Returns a function that unregisters it. */
  add(route: Route, handler: Handler): () => void {
    validateRoute(route);
    if (typeof handler !== 'function') throw new TypeError('handler must be a function');
    const entry = { route, handler };
    this.#entries.push(entry);
    return () => {
      const index = this.#entries.indexOf(entry);
      if (index >= 0) this.#entries.splice(index, 1);
    };
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
