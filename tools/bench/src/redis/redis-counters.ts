/**
 * Counting what Redis work something costs: requests a client sends (each one round trip, since
 * nothing is pipelined across operations) and commands the server runs (`INFO commandstats`,
 * commands inside scripts included).
 */

import type { RedisClient } from '@rt/state-redis';
import type { Redis } from 'ioredis';

/** Calls per command name, e.g. `{ set: 1, evalsha: 2 }`. */
export type CommandCounts = Readonly<Record<string, number>>;

/** What `work` cost: requests `client` sent and commands the server ran, per `units`. */
export interface Cost {
  readonly roundTrips: number;
  readonly serverCommands: number;
  readonly byCommand: CommandCounts;
}

/**
 * Runs `work` while counting the requests `client` sends and the server's command counts
 * (`admin` reads `INFO commandstats` before and after; its own `INFO` is left out). Meaningful
 * only on a server nobody else uses meanwhile. Divides everything by `units`.
 */
export async function measureCost(
  admin: Redis,
  client: RedisClient,
  units: number,
  work: () => Promise<void>,
): Promise<Cost> {
  const target = client as Redis;
  const send = target.sendCommand;
  let sent = 0;
  target.sendCommand = function counted(this: Redis, ...args: Parameters<Redis['sendCommand']>) {
    sent += 1;
    return send.apply(this, args);
  } as Redis['sendCommand'];
  try {
    const before = await commandStats(admin);
    await work();
    const after = await commandStats(admin);
    const byCommand: Record<string, number> = {};
    let total = 0;
    for (const [name, calls] of Object.entries(after)) {
      const delta = calls - (before[name] ?? 0) - (name === 'info' ? 1 : 0);
      if (delta <= 0) continue;
      byCommand[name] = delta / units;
      total += delta;
    }
    return { roundTrips: sent / units, serverCommands: total / units, byCommand };
  } finally {
    target.sendCommand = send;
  }
}

/** `INFO commandstats` as calls per command name. */
async function commandStats(admin: Redis): Promise<Record<string, number>> {
  const info = await admin.info('commandstats');
  const counts: Record<string, number> = {};
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    counts[match[1]!] = Number(match[2]);
  }
  return counts;
}

/** `{ set: 1, evalsha: 2 }` as `set 1, evalsha 2`. */
export function formatCounts(counts: CommandCounts): string {
  return Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([name, calls]) => `${name} ${Number(calls.toFixed(2))}`)
    .join(', ');
}
