import {
  botPartOf,
  type InstallationLookup,
  type InstallationStore,
  installationKeyOf,
  lookupOf,
  type SlackOAuthInstallation,
  userPartOf,
  withUser,
} from './installation-store.js';

interface Entry {
  record: SlackOAuthInstallation;
  readonly users: Map<string, SlackOAuthInstallation['user']>;
}

/**
 * An installation store in this process's memory, for development and tests: nothing survives a
 * restart, nothing is shared between instances, and nothing is encrypted (use the Redis store in
 * production). Records are copied in and out, so callers never share objects with it.
 */
export class MemoryInstallationStore implements InstallationStore {
  readonly #entries = new Map<string, Entry>();

  /** How many installations are stored. */
  get size(): number {
    return this.#entries.size;
  }

  async store(installation: SlackOAuthInstallation, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const key = installationKeyOf(lookupOf(installation));
    const entry = this.#entries.get(key) ?? { record: installation, users: new Map() };
    entry.record = structuredClone(botPartOf(installation));
    const user = userPartOf(installation);
    if (user !== undefined) entry.users.set(user.id, structuredClone(user));
    this.#entries.set(key, entry);
  }

  async fetch(
    lookup: InstallationLookup,
    signal?: AbortSignal,
  ): Promise<SlackOAuthInstallation | undefined> {
    signal?.throwIfAborted();
    const entry = this.#entries.get(installationKeyOf(lookup));
    if (entry === undefined) return undefined;
    const user = lookup.userId === undefined ? undefined : entry.users.get(lookup.userId);
    return structuredClone(withUser(entry.record, user));
  }

  async delete(lookup: InstallationLookup, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const key = installationKeyOf(lookup);
    if (lookup.userId === undefined) this.#entries.delete(key);
    else this.#entries.get(key)?.users.delete(lookup.userId);
  }
}

/** Creates an empty `MemoryInstallationStore`. */
export function createMemoryInstallationStore(): MemoryInstallationStore {
  return new MemoryInstallationStore();
}
