import { createServer, type Server, Socket } from 'node:net';

/** What the proxy does to the server's replies. */
export type ProxyMode =
  | { readonly kind: 'pass' }
  /** Holds every reply chunk back for `ms` (order kept), like a slow or congested link. */
  | { readonly kind: 'delay'; readonly ms: number }
  /** Cuts every connection and refuses new ones: replies in flight are lost. */
  | { readonly kind: 'partition' };

/**
 * A TCP proxy on 127.0.0.1 port 0 in front of `target`, whose mode can change at any time. Counts
 * the reply bytes it held back or lost, so a test knows its fault really happened.
 */
export class TcpProxy {
  mode: ProxyMode = { kind: 'pass' };
  delayedChunks = 0;
  cutConnections = 0;
  refusedConnections = 0;
  readonly #server: Server;
  readonly #pairs = new Set<{ client: Socket; upstream: Socket }>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();

  private constructor(target: { host: string; port: number }) {
    this.#server = createServer((client) => {
      if (this.mode.kind === 'partition') {
        this.refusedConnections += 1;
        client.destroy();
        return;
      }
      const upstream = new Socket();
      upstream.connect(target.port, target.host);
      const pair = { client, upstream };
      this.#pairs.add(pair);
      const end = () => {
        this.#pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
      client.on('data', (chunk) => upstream.write(chunk));
      // Replies leave in arrival order through one queue per connection: after a delay ends,
      // later replies wait behind the held ones (a reordered reply would answer the wrong command).
      const queue: { chunk: Buffer; releaseAt: number }[] = [];
      let pump: ReturnType<typeof setTimeout> | undefined;
      const flush = () => {
        pump = undefined;
        const now = performance.now();
        while (queue.length > 0 && queue[0]!.releaseAt <= now) {
          const { chunk } = queue.shift()!;
          if (!client.destroyed) client.write(chunk);
        }
        if (queue.length > 0) schedule();
      };
      const schedule = () => {
        if (pump !== undefined) return;
        const wait = Math.max(0, queue[0]!.releaseAt - performance.now());
        pump = setTimeout(() => {
          this.#timers.delete(pump!);
          flush();
        }, Math.ceil(wait));
        this.#timers.add(pump);
      };
      upstream.on('data', (chunk: Buffer) => {
        const mode = this.mode;
        if (mode.kind !== 'delay' && queue.length === 0) {
          if (!client.destroyed) client.write(chunk);
          return;
        }
        if (mode.kind === 'delay') this.delayedChunks += 1;
        const releaseAt = mode.kind === 'delay' ? performance.now() + mode.ms : 0;
        queue.push({ chunk, releaseAt: Math.max(releaseAt, queue.at(-1)?.releaseAt ?? 0) });
        schedule();
      });
    });
  }

  /** Starts a proxy to `target`. */
  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy not listening');
    return `redis://127.0.0.1:${address.port}`;
  }

  /** Switches mode; `partition` cuts every open connection at once. */
  set(mode: ProxyMode): void {
    this.mode = mode;
    if (mode.kind !== 'partition') return;
    for (const pair of [...this.#pairs]) {
      this.cutConnections += 1;
      pair.client.destroy();
      pair.upstream.destroy();
    }
  }

  /** Closes the proxy and every connection; pending delayed replies are dropped. */
  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const pair of this.#pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
