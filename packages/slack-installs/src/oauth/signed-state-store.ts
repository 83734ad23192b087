import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { State } from '@rt/core';
import { installationMarkKey } from '@rt/core/adapter';
import type { InstallURLOptions, StateStore } from '@slack/oauth';
import { InstallFlowError } from '../errors.js';

/** What the `state` parameter carries (signed, never encrypted: it holds no secret). */
interface StateBody {
  /** 16 random bytes, base64url: the single-use id. */
  readonly n: string;
  /** Issue time, epoch ms. */
  readonly t: number;
  /** The install options the redirect continues with (redirect URI, metadata). */
  readonly o: InstallURLOptions;
}

/** Options of the signed state store. */
export interface SignedStateStoreOptions {
  /** HMAC-SHA256 key of the `state` parameter; at least 32 characters. */
  readonly secret: string;
  /** How long a `state` is accepted after it was issued. */
  readonly ttlMs: number;
  /** The runtime State: its `markEvent` records each `state`'s single use. */
  readonly state: State;
  /** The adapter name marks are namespaced by. */
  readonly name: string;
  /** Epoch ms now. */
  readonly clock: () => number;
}

function sign(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/**
 * `@slack/oauth`'s `StateStore` for the `state` parameter: a random id and the issue time,
 * signed with HMAC-SHA256, expiring after `ttlMs`, and single use. The single use is one
 * `markEvent` on the runtime's State (key `oauth-state:<name>:install:<id>`, TTL `ttlMs`): atomic
 * across instances, gone by itself once the state could no longer be accepted anyway, and
 * coordination data, not installation data (ADR 0004). The library itself binds the state to the
 * browser with an HttpOnly cookie and compares the two before calling `verifyStateParam`.
 * Failures reject with `InstallFlowError` (`state_invalid`, `state_expired`, `state_replayed`,
 * `state_unavailable`).
 */
export class SignedStateStore implements StateStore {
  readonly #options: SignedStateStoreOptions;

  constructor(options: SignedStateStoreOptions) {
    if (typeof options.secret !== 'string' || options.secret.length < 32) {
      throw new RangeError('stateSecret must be a string of at least 32 characters');
    }
    this.#options = options;
  }

  async generateStateParam(installOptions: InstallURLOptions): Promise<string> {
    const body: StateBody = {
      n: randomBytes(16).toString('base64url'),
      t: this.#options.clock(),
      o: installOptions,
    };
    const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${encoded}.${sign(this.#options.secret, encoded).toString('base64url')}`;
  }

  async verifyStateParam(_now: Date, state: string): Promise<InstallURLOptions> {
    const body = this.#verified(state);
    const age = this.#options.clock() - body.t;
    if (age > this.#options.ttlMs || age < -60_000) {
      throw new InstallFlowError('state_expired', 'the install link has expired; start again');
    }
    let first: boolean;
    try {
      const key = installationMarkKey('oauth-state', this.#options.name, 'install', body.n);
      first = await this.#options.state.markEvent(key, this.#options.ttlMs);
    } catch {
      throw new InstallFlowError('state_unavailable', 'the install could not be checked right now');
    }
    if (!first) throw new InstallFlowError('state_replayed', 'the install link was already used');
    return body.o;
  }

  #verified(state: unknown): StateBody {
    const invalid = () => new InstallFlowError('state_invalid', 'the install link is not valid');
    if (typeof state !== 'string' || state.length > 4096) throw invalid();
    const [encoded, signature, extra] = state.split('.');
    if (encoded === undefined || signature === undefined || extra !== undefined) throw invalid();
    const expected = sign(this.#options.secret, encoded);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    let body: Partial<StateBody>;
    try {
      body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<StateBody>;
    } catch {
      throw invalid();
    }
    if (
      typeof body?.n !== 'string' ||
      body.n.length === 0 ||
      typeof body.t !== 'number' ||
      typeof body.o !== 'object' ||
      body.o === null
    ) {
      throw invalid();
    }
    return body as StateBody;
  }
}
