/**
 * Test helpers that look at and disturb a Redis server from the side: an admin connection, the
 * server's view of its clients, pausing writes and killing connections. Only for private servers
 * (`startRedisServer`): pausing or killing clients of a shared server would disturb others.
 */
import { Redis } from 'ioredis';

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 10 ms until it holds (the test's own timeout bounds the wait). */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await sleep(10);
}

/**
 * An admin connection with ioredis defaults that keeps quiet about connection errors (it
 * reconnects by itself when its server restarts). Disconnect it when done.
 */
export function adminClient(url: string): Redis {
  const admin = new Redis(url, { connectionName: 'rt-test-admin' });
  admin.on('error', () => undefined);
  return admin;
}

/** One line of `CLIENT LIST`. */
export interface ServerClient {
  readonly id: string;
  readonly name: string;
  /** Single-letter flags: `b` blocked (e.g. postponed by `CLIENT PAUSE`), `P` pub/sub, `N` none. */
  readonly flags: string;
  /** The command last received (`set`, `evalsha`, ...). */
  readonly cmd: string;
}

/** The server's clients, optionally only those named `name` (`CLIENT SETNAME`). */
export async function serverClients(admin: Redis, name?: string): Promise<ServerClient[]> {
  const list = String(await admin.client('LIST'));
  const clients = list
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const fields = new Map(
        line
          .trim()
          .split(' ')
          .map((pair) => {
            const at = pair.indexOf('=');
            return [pair.slice(0, at), pair.slice(at + 1)] as const;
          }),
      );
      return {
        id: fields.get('id') ?? '',
        name: fields.get('name') ?? '',
        flags: fields.get('flags') ?? '',
        cmd: fields.get('cmd') ?? '',
      };
    });
  return name === undefined ? clients : clients.filter((client) => client.name === name);
}

/** Clients named `name` whose command the server holds back (blocked, e.g. by a pause). */
export async function blockedClients(admin: Redis, name: string): Promise<ServerClient[]> {
  return (await serverClients(admin, name)).filter((client) => client.flags.includes('b'));
}

/** Closes every connection named `name` from the server side; resolves how many it closed. */
export async function killClientsNamed(admin: Redis, name: string): Promise<number> {
  let killed = 0;
  for (const client of await serverClients(admin, name)) {
    killed += Number(await admin.client('KILL', 'ID', client.id));
  }
  return killed;
}

/** Holds back every write command (and script) of every client for `ms`, until `UNPAUSE`. */
export async function pauseWrites(admin: Redis, ms = 10_000): Promise<void> {
  await admin.client('PAUSE', ms, 'WRITE');
}

/** How many connections are subscribed to `channel`. */
export async function subscriberCount(admin: Redis, channel: string): Promise<number> {
  const reply = (await admin.pubsub('NUMSUB', channel)) as [string, number];
  return Number(reply[1]);
}
