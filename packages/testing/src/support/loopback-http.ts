/**
 * The scaffolding every local fake of a platform shares: a `node:http` server on 127.0.0.1 with
 * an ephemeral port, request bodies read whole, waits on what the fake recorded, and per-route
 * faults (fail, delay, hang). Internal to `@rt/testing`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A started loopback server. */
export interface LoopbackHttp {
  readonly server: Server;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly port: number;
  /**
   * Runs `beforeClose` (given to `startLoopbackHttp`), stops the server and drops open
   * connections. Idempotent: every call returns the first call's promise.
   */
  close(): Promise<void>;
}

/** Options of `startLoopbackHttp`. */
export interface LoopbackHttpOptions {
  /** Runs once, first thing in `close()` (terminate sockets, clear timers...). */
  readonly beforeClose?: () => void;
}

/**
 * Starts `handle` on 127.0.0.1, port 0. A handler that throws or rejects answers 500 (or ends
 * the response when its head is out), never an unhandled rejection. Rejects when listening fails.
 */
export async function startLoopbackHttp(
  handle: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
  options: LoopbackHttpOptions = {},
): Promise<LoopbackHttp> {
  const server = createServer((req, res) => {
    Promise.resolve()
      .then(() => handle(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    server,
    port,
    origin: `http://127.0.0.1:${port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        options.beforeClose?.();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Reads a request's whole body as UTF-8. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Waits on a fake's records: call `changed()` after every change, and `until(check, ...)`
 * resolves with the first value `check` returns other than `undefined`, checked now and after
 * every change.
 */
export class ChangeWaiters {
  readonly #waiters = new Set<() => void>();
  readonly #label: string;

  /** `label` starts every timeout message (`fake Slack`). */
  constructor(label: string) {
    this.#label = label;
  }

  /** Wakes every pending `until`. */
  changed(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  /**
   * Resolves with `check()`'s first defined value; rejects after `timeoutMs` (a `setTimeout`,
   * so fake timers drive it) with an `Error` saying `<label>: <what()> within <timeoutMs> ms`.
   * The waiter and its timer are removed either way.
   */
  until<T>(check: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const now = check();
      if (now !== undefined) {
        resolve(now);
        return;
      }
      const timer = setTimeout(() => {
        this.#waiters.delete(wake);
        reject(new Error(`${this.#label}: ${what()} within ${timeoutMs} ms`));
      }, timeoutMs);
      const wake = () => {
        const value = check();
        if (value === undefined) return;
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve(value);
      };
      this.#waiters.add(wake);
    });
  }
}

/** What `RouteFaults.apply` decided for one call. */
export type RouteFault<F> =
  | { readonly type: 'hang' }
  | { readonly type: 'fail'; readonly failure: F }
  | undefined;

/**
 * Per-route faults a fake injects, keyed by its route or method name `K`, with its own failure
 * description `F`: `fail` (the next `times` calls, default all), `delay` (real time), `hang`.
 */
export class RouteFaults<K, F> {
  readonly #failures = new Map<K, { failure: F; remaining: number }>();
  readonly #delays = new Map<K, number>();
  readonly #hanging = new Set<K>();

  /** Makes the next `times` calls of `key` fail with `failure` (replacing an earlier setting). */
  fail(key: K, failure: F, times = Number.POSITIVE_INFINITY): void {
    this.#failures.set(key, { failure, remaining: times });
  }

  /** Delays every answer of `key` by `delayMs`. */
  delay(key: K, delayMs: number): void {
    this.#delays.set(key, delayMs);
  }

  /** Never answers `key`. */
  hang(key: K): void {
    this.#hanging.add(key);
  }

  /**
   * For one call of `key`: `hang` when it hangs; else, after its delay, `fail` with the failure
   * while failures remain (counting this one), else `undefined`: answer normally.
   */
  async apply(key: K): Promise<RouteFault<F>> {
    if (this.#hanging.has(key)) return { type: 'hang' };
    const delayMs = this.#delays.get(key);
    if (delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const failing = this.#failures.get(key);
    if (failing !== undefined && failing.remaining > 0) {
      failing.remaining -= 1;
      return { type: 'fail', failure: failing.failure };
    }
    return undefined;
  }
}
