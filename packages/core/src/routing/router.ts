import type { RtEvent } from '../event/event.js';
import type { Handler } from './handler.js';
import { type Route, routeMatches, validateRoute } from './route.js';

/** Handlers nothing selected (shared). */
const NONE: readonly Handler[] = Object.freeze([]);

/** One registration, with the one-handler list a match of it alone returns (shared, no array per event). */
interface RouterEntry {
  readonly route: Route;
  readonly handler: Handler;
  readonly alone: readonly Handler[];
}

/**
 * Handler registry. `match` returns every handler whose route selects the event, in registration
 * order; the runtime runs them one after another for one delivery. The lists it returns are
 * read-only and may be shared between events: an event one registration selects gets that
 * registration's own one-handler list, so routing allocates no array per event in the common case.
 */
export class Router {
  readonly #entries: RouterEntry[] = [];
  /** How many of the entries are `subscribed_message` routes. */
  #subscribed = 0;

  /** Registers `handler` for `route`. Returns a function that unregisters it. */
  add(route: Route, handler: Handler): () => void {
    validateRoute(route);
    if (typeof handler !== 'function') throw new TypeError('handler must be a function');
    const entry: RouterEntry = { route, handler, alone: [handler] };
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
  matchSubscribed(event: RtEvent): readonly Handler[] {
    const selected = new Selection();
    for (const entry of this.#entries) {
      const { route } = entry;
      if (!isSubscribedRoute(route)) continue;
      if (route.adapter === undefined || route.adapter === event.adapter) selected.add(entry);
    }
    return selected.handlers();
  }

  /** Handlers selected by `event`, in registration order (empty when unrouted). */
  match(event: RtEvent): readonly Handler[] {
    const selected = new Selection();
    for (const entry of this.#entries) {
      if (routeMatches(entry.route, event)) selected.add(entry);
    }
    return selected.handlers();
  }
}

/** The entries one match selected, in order: an array only once a second one is selected. */
class Selection {
  #only: RouterEntry | undefined;
  #several: Handler[] | undefined;

  add(entry: RouterEntry): void {
    if (this.#several !== undefined) this.#several.push(entry.handler);
    else if (this.#only === undefined) this.#only = entry;
    else this.#several = [this.#only.handler, entry.handler];
  }

  /** The selected handlers: the only entry's own shared list when exactly one was selected. */
  handlers(): readonly Handler[] {
    return this.#several ?? this.#only?.alone ?? NONE;
  }
}

function isSubscribedRoute(
  route: Route,
): route is Extract<Route, { readonly kind: 'subscribed_message' }> {
  return typeof route === 'object' && route.kind === 'subscribed_message';
}
