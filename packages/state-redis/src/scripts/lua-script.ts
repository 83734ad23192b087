/**
 * A Lua script kept in a `.lua` file beside this module, called by SHA with a NOSCRIPT fallback.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Cluster, Redis } from 'ioredis';

/** The commands a script needs from a client (a `Redis` or a `Cluster`). */
export type ScriptClient = Pick<Redis | Cluster, 'evalsha' | 'eval'>;

/**
 * One script. Its source is read from disk once, on first use, and its SHA1 computed locally; every
 * call sends `EVALSHA`, and only when the server answers `NOSCRIPT` (after a restart or a
 * `SCRIPT FLUSH`) sends the full source once with `EVAL`, which also caches it on the server.
 */
export class LuaScript {
  readonly #url: URL;
  #source: string | undefined;
  #sha: string | undefined;

  /** `url`: where the `.lua` file lives (resolved against the calling module). */
  constructor(url: URL) {
    this.#url = url;
  }

  /** The script's source text. Throws when the file is missing (a broken build). */
  get source(): string {
    this.#source ??= readFileSync(this.#url, 'utf8');
    return this.#source;
  }

  /** SHA1 of the source, as Redis names cached scripts. */
  get sha(): string {
    this.#sha ??= createHash('sha1').update(this.source).digest('hex');
    return this.#sha;
  }

  /** Runs the script with `keys` and `args`; resolves the raw reply. */
  async run(
    client: ScriptClient,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    try {
      return await client.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return await client.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}
