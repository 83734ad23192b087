import { anySignal } from '@rt/core/adapter';
// The default import is the CommonJS module itself: Node's ESM loader does not see
// `retryPolicies` as a named export.
import webApi, {
  type FetchFunction,
  type RetryOptions,
  WebClient,
  type WebClientOptions,
} from '@slack/web-api';

/** Where a call's `AbortSignal` rides along with its arguments (never serialised: a symbol key). */
const SIGNAL = Symbol('rt.slack.signal');

type FetchInit = Parameters<FetchFunction>[1];
/** What a `fetch` given to `WebClient` resolves (the members the library reads). */
type FetchResponse = Awaited<ReturnType<FetchFunction>>;
type Serialize = (
  this: WebClient,
  data: Record<PropertyKey, unknown>,
) => { serializedBody: unknown };

/** The signal of the request just serialised, with the body it belongs to. */
interface Pending {
  readonly body: unknown;
  readonly signal: AbortSignal;
}

/** What a `SignalWebClient`'s fetch rejected with because the call's own signal had aborted. */
const abortedAttempts = new WeakSet<object>();

/** The request each client serialised last and has not sent yet (see `SignalWebClient`). */
const pendingOf = new WeakMap<WebClient, Pending>();

/**
 * A `WebClient` whose calls can carry an `AbortSignal` down to their HTTP request: pass the
 * arguments through `withSignal`. `@slack/web-api` 8 offers no per-call signal, so this subclass
 * joins two seams. The public one: the client is built with its own `fetch` (wrapping
 * `options.fetch`, else the global `fetch`). The private one: `apiCall` spreads the arguments,
 * symbol keys included, into the body that `makeRequest` hands to `serializeBody`, and calls
 * `fetch` right after it, in the same synchronous turn; the override of `serializeBody` notes the
 * call's signal with the body it serialised, and the fetch takes it only for exactly that body, so
 * a signal can never reach another call's request. The fetch joins it to the client's own
 * per-attempt timeout signal (`anySignal`), which stops listening to the call's signal once the
 * request failed or its answer was read (so a long-lived signal gathers no listeners). An abort
 * therefore cancels the attempt in flight, body included; a later attempt starts already aborted,
 * and the retry policy stops at once (every client's `retryConfig`, the library's default
 * included, goes through `isAbortedAttempt`).
 *
 * Not cancelled: the `Retry-After` wait of a rate-limited attempt and the backoff between
 * attempts run out before the client settles (the adapter's calls reject at the abort anyway),
 * and `filesUploadV2`'s upload requests get no signal. If a library update renames the private
 * seam, calls still reject at the abort (the adapter wraps them in `abortable`), and the test
 * `cancels the HTTP request in flight` fails.
 */
export class SignalWebClient extends WebClient {
  constructor(token?: string, options: WebClientOptions = {}) {
    const send: FetchFunction = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    super(token, {
      ...options,
      retryConfig: stopOnAbort(
        options.retryConfig ?? webApi.retryPolicies.tenRetriesInAboutThirtyMinutes,
      ),
      // `this` is read when a request is sent, long after construction.
      fetch: (url, init) => fetchWithSignal(send, url, init, takePending(this, init)),
    });
  }
}

const serialize = (WebClient.prototype as unknown as Record<string, unknown>).serializeBody;
if (typeof serialize === 'function') {
  Object.defineProperty(SignalWebClient.prototype, 'serializeBody', {
    configurable: true,
    writable: true,
    value(this: WebClient, data: Record<PropertyKey, unknown>) {
      const serialized = (serialize as Serialize).call(this, data);
      const signal = data?.[SIGNAL];
      if (signal instanceof AbortSignal) {
        pendingOf.set(this, { body: serialized.serializedBody, signal });
      } else {
        pendingOf.delete(this);
      }
      return serialized;
    },
  });
}

/** The signal noted for the request `init` describes, if any; the note is used up either way. */
function takePending(client: WebClient, init: FetchInit): AbortSignal | undefined {
  const pending = pendingOf.get(client);
  pendingOf.delete(client);
  return pending !== undefined && pending.body === init?.body ? pending.signal : undefined;
}

/**
 * One attempt: `send` with the call's signal joined to the attempt's own (timeout) signal. The
 * joined signal stops listening to both once the request failed or its answer was read.
 */
async function fetchWithSignal(
  send: FetchFunction,
  url: string | URL,
  init: FetchInit,
  own: AbortSignal | undefined,
): Promise<FetchResponse> {
  if (own === undefined) return send(url, init);
  const joined = anySignal([own, init?.signal]);
  let response: FetchResponse;
  try {
    response = await send(url, { ...init, signal: joined.signal });
  } catch (error) {
    joined.dispose();
    throw own.aborted ? abortedAttempt(error) : error;
  }
  return releasedOnRead(response, joined.dispose);
}

/** What `fetch` rejected with for an aborted call, marked for `isAbortedAttempt`. */
function abortedAttempt(error: unknown): object {
  const marked =
    typeof error === 'object' && error !== null
      ? error
      : new DOMException(String(error), 'AbortError');
  abortedAttempts.add(marked);
  return marked;
}

const BODY_READERS = new Set<PropertyKey>(['arrayBuffer', 'json', 'text']);

/**
 * `response` as it is, except that reading its body (`text`, `json`, `arrayBuffer`: what
 * `FetchResponse` offers) calls `release` once the read settled.
 */
function releasedOnRead(response: FetchResponse, release: () => void): FetchResponse {
  return new Proxy(response, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (!BODY_READERS.has(key)) return value.bind(target);
      return (...args: unknown[]) =>
        (value.apply(target, args) as Promise<unknown>).finally(release);
    },
  });
}

/** `retryConfig` with an `onFailedAttempt` that ends the retries of an aborted call. */
function stopOnAbort(retryConfig: RetryOptions): RetryOptions {
  // `retryConfig` goes to p-retry, which also honours `onFailedAttempt` (not in the type).
  const given = retryConfig as RetryOptions & { onFailedAttempt?: (error: unknown) => unknown };
  const onFailedAttempt = given.onFailedAttempt;
  return {
    ...given,
    onFailedAttempt: (error: unknown) => {
      if (isAbortedAttempt(error)) throw error;
      return onFailedAttempt?.(error);
    },
  } as RetryOptions;
}

/** `args` carrying `signal` for a `SignalWebClient` call (unchanged without a signal). */
export function withSignal<T extends object>(args: T, signal: AbortSignal | undefined): T {
  return signal === undefined ? args : { ...args, [SIGNAL]: signal };
}

/**
 * True when `error` (a failed attempt of a `WebClient` call: `@slack/web-api` 8 wraps what
 * `fetch` rejected with in a `WebAPIRequestError`, as `original` and `cause`) comes from an
 * aborted request: one whose call signal had aborted (whatever its reason), or any `AbortError`.
 * Retrying it is pointless, so the retry policy stops at once. A per-attempt timeout
 * (`TimeoutError`) is no abort: it is retried.
 */
export function isAbortedAttempt(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { original, cause } = error as { original?: unknown; cause?: unknown };
  return [error, original, cause].some(
    (candidate) =>
      typeof candidate === 'object' &&
      candidate !== null &&
      (abortedAttempts.has(candidate) || (candidate as { name?: unknown }).name === 'AbortError'),
  );
}
