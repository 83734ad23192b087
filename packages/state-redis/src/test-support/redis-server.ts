/**
 * Test helper: a private `redis-server` on a free loopback port, which tests may stop and restart
 * on the same port. Never part of the build.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

const INSTALL_HINT =
  'The @rt/state-redis tests need redis-server on PATH (or REDIS_SERVER_BIN naming it): Debian/' +
  'Ubuntu `apt-get install -y redis-server`, macOS `brew install redis`. REDIS_URL alone is not ' +
  'enough: the fault, runtime, cluster, script and wake-up tests always start private servers, ' +
  'because they stop, pause, flush or cluster them.';

/** Servers still running, killed when the test process exits however it exits. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** A redis-server child process bound to 127.0.0.1. */
export interface PrivateRedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server (SIGKILL by default: like a crash, nothing is flushed). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port, with an empty dataset. */
  restart(): Promise<void>;
  /** Stops it for good and removes its directory. Idempotent. */
  dispose(): Promise<void>;
}

/**
 * Where tests that leave the server alone (no stop, pause, kill, flush or cluster) find Redis:
 * `REDIS_URL` when set, else a private server (disposed by `release`). Tests that disturb the
 * server use `startRedisServer` instead, always.
 */
export async function provideRedisUrl(): Promise<{ url: string; release(): Promise<void> }> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv) return { url: fromEnv, release: async () => undefined };
  const server = await startRedisServer();
  return { url: server.url, release: () => server.dispose() };
}

/** How to start the private server. */
export interface StartRedisServerOptions {
  /**
   * Run as a one-node Redis Cluster owning all 16384 slots, so cluster rules (no cross-slot
   * scripts) are enforced. Default false.
   */
  cluster?: boolean;
}

/**
 * Starts `redis-server` from PATH on a free port below the ephemeral range (`freePort`), without
 * persistence (`--save "" --appendonly no`). Fails with an install hint when it cannot.
 */
export async function startRedisServer(
  options: StartRedisServerOptions = {},
): Promise<PrivateRedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'rt-redis-'));
  const extra = options.cluster
    ? [
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, 'nodes.conf'),
        '--cluster-announce-ip',
        '127.0.0.1',
      ]
    : [];
  let child: ChildProcess | undefined = await launch(port, dir, extra);
  if (options.cluster) await claimAllSlots(port);
  let disposed = false;

  const stop = async (signal: NodeJS.Signals = 'SIGKILL') => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill(signal);
    await exited;
  };

  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    async restart() {
      await stop();
      child = await launch(port, dir, extra);
      if (options.cluster) await claimAllSlots(port);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A free port below the kernel's range of ephemeral ports (read from /proc). The server restarts
 * on its own port in the outage tests, and while it is down a client retrying its loopback
 * connection could be handed that very port as its own source port (a TCP self-connect), or
 * another process's outgoing connection could take it: the restart would then fail with "Address
 * already in use". A port outside the range is never picked for an outgoing connection. Falls
 * back to the kernel's choice (`bind(0)`) where the range leaves no room below it.
 */
async function freePort(): Promise<number> {
  const low = ephemeralLow();
  if (low > LOWEST_PORT + 1000) {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const port = LOWEST_PORT + Math.floor(Math.random() * (low - LOWEST_PORT));
      if ((await bindOnce(port)) !== undefined) return port;
    }
  }
  const port = await bindOnce(0);
  if (port === undefined) throw new Error('no port from bind(0)');
  return port;
}

/** Ports below this are left to the machine's own services. */
const LOWEST_PORT = 10_000;

/** The first port of the kernel's ephemeral range (Linux's default when unreadable). */
function ephemeralLow(): number {
  try {
    const range = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
    const low = Number.parseInt(range.trim().split(/\s+/)[0] ?? '', 10);
    return Number.isInteger(low) ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Binds `port` on 127.0.0.1 and closes it again: the port bound, or `undefined` when taken. */
async function bindOnce(port: number): Promise<number | undefined> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!bound) return undefined;
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address === null || typeof address === 'string' ? undefined : address.port;
}

/** Spawns the server and resolves once it accepts connections. */
function launch(port: number, dir: string, extra: readonly string[]): Promise<ChildProcess> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    '--daemonize',
    'no',
    '--loglevel',
    'notice',
    ...extra,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.env.REDIS_SERVER_BIN ?? 'redis-server', args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start within 10 s on port ${port}:\n${output}`));
    }, 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new Error(INSTALL_HINT, { cause: error }) : error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/** Gives the one cluster node every slot and waits until the cluster reports `ok`. */
async function claimAllSlots(port: number): Promise<void> {
  const admin = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
  try {
    await admin.connect();
    await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
    for (let attempt = 0; attempt < 500; attempt += 1) {
      const info = String(await admin.call('CLUSTER', 'INFO'));
      if (info.includes('cluster_state:ok')) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`one-node cluster on port ${port} did not reach cluster_state:ok`);
  } finally {
    admin.disconnect();
  }
}
