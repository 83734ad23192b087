import type { REST } from '@discordjs/rest';
import { abortable, anySignal, PendingSet, timeoutSignal } from '@rt/core/adapter';
import type { Client } from 'discord.js';
import { DiscordGatewayError } from '../errors.js';
import type { InboundDeps } from '../inbound/inbound-deps.js';
import {
  type GatewayReaction,
  normalizeGatewayDispatch,
  normalizeGatewayReaction,
} from '../normalize/normalize-gateway-dispatch.js';
import {
  type GatewayNormalizeContext,
  type GatewayNormalized,
  normalizeGatewayMessage,
} from '../normalize/normalize-gateway-message.js';
import { normalizeGatewayThreadEnd } from '../normalize/normalize-gateway-thread-end.js';
import type { DiscordOutbound } from '../outbound/discord-outbound.js';
import { answerGatewayInteraction } from './answer-gateway-interaction.js';
import { ConnectionWatch } from './connection-watch.js';
import { dispatchGatewayEvent, type GatewayDispatchDeps } from './dispatch-gateway-event.js';
import type { ResolvedGatewayOptions } from './gateway-options.js';
import { MessageRefusals } from './message-refusal.js';

/** What the gateway transport needs from its adapter. */
export interface GatewayDeps {
  /** The adapter's inbound core (options, runtime, notices, answers in flight, reply states). */
  readonly inbound: InboundDeps;
  readonly gateway: ResolvedGatewayOptions;
  /** The adapter's REST client (bounded retries), for interaction callbacks. */
  readonly rest: REST;
  readonly outbound: DiscordOutbound;
}

/** A gateway packet as discord.js's `raw` event hands it over. */
interface RawPacket {
  readonly t?: string | null;
  readonly d?: unknown;
}

type Phase = 'idle' | 'starting' | 'started' | 'closing' | 'closed';

/**
 * The gateway transport: a long-lived `discord.js` `Client` (loaded with `await import` on
 * `start`, so HTTP-only users never load it) whose dispatches are normalised and handed to the
 * runtime. It reads Discord's payloads from the client's `raw` event, so handlers get them
 * untouched (as over HTTP) and no message is lost to discord.js's guild cache; discord.js keeps
 * its caches (read here for thread parents), its heartbeats, reconnects and resumes. A dispatch
 * replayed across a resume is deduped by the runtime on its identity.
 */
export class DiscordGateway {
  readonly #deps: GatewayDeps;
  readonly #inflight = new PendingSet();
  readonly #refusals: MessageRefusals;
  /** One watch per shard (discord.js may run several in one client). */
  readonly #watches = new Map<number, ConnectionWatch>();
  #watching = true;
  #client: Client | undefined;
  #phase: Phase = 'idle';
  #started: Promise<void> | undefined;
  #closed: Promise<void> | undefined;

  constructor(deps: GatewayDeps) {
    this.#deps = deps;
    const { options } = deps.inbound;
    this.#refusals = new MessageRefusals({
      outbound: deps.outbound,
      via: deps.gateway.busySignal,
      reaction: deps.gateway.busyReaction,
      budgetMs: options.busySignalTimeoutMs,
      onFailure: (refusal, via, error) =>
        deps.inbound.notice(
          'busy_signal_failed',
          { shape: refusal.event.shape, eventId: refusal.event.id, via },
          error,
        ),
    });
  }

  /** The watch of shard `shardId`, created on first use; `undefined` once the gateway closes. */
  #watch(shardId: number): ConnectionWatch | undefined {
    if (!this.#watching) return undefined;
    let watch = this.#watches.get(shardId);
    if (watch === undefined) {
      watch = new ConnectionWatch(this.#deps.gateway.disconnectedAlertMs, (name, detail, error) =>
        this.#deps.inbound.notice(name, { ...detail, shardId }, error),
      );
      this.#watches.set(shardId, watch);
    }
    return watch;
  }

  /** The discord.js client once `start()` created it (for anything rt does not wrap). */
  get client(): Client | undefined {
    return this.#client;
  }

  /**
   * Creates the client, logs in and resolves once it is ready (READY and every guild's
   * GUILD_CREATE). Rejects with `DiscordGatewayError` when login fails or `readyTimeoutMs`
   * passes, with `signal.reason` when `signal` aborts first (the runtime shut down); either way the
   * client is destroyed. Memoized; after a failure a new call tries again.
   */
  start(signal: AbortSignal): Promise<void> {
    if (this.#phase === 'closing' || this.#phase === 'closed') {
      return Promise.reject(new DiscordGatewayError('the gateway was closed'));
    }
    this.#started ??= this.#start(signal).catch((error: unknown) => {
      this.#started = undefined;
      throw error;
    });
    return this.#started;
  }

  async #start(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    this.#phase = 'starting';
    const { Client, Events, Partials } = await import('discord.js');
    signal.throwIfAborted();
    const { options } = this.#deps.inbound;
    const { gateway } = this.#deps;
    const client = new Client({
      partials: [Partials.Channel],
      ...gateway.clientOptions,
      intents: gateway.intents,
      rest: { api: options.apiUrl, ...gateway.clientOptions.rest },
    });
    this.#client = client;
    client.on(Events.Raw, (packet: RawPacket) => this.#onPacket(packet));
    client.on(Events.ShardReconnecting, (shardId: number) => this.#watch(shardId)?.dropped());
    client.on(Events.ShardDisconnect, (event: { code: number }, shardId: number) =>
      this.#watch(shardId)?.closedForGood(event.code),
    );
    client.on(Events.ShardResume, (shardId: number) => this.#watch(shardId)?.restored());
    client.on(Events.ShardReady, (shardId: number) => this.#watch(shardId)?.restored());
    client.on(Events.ShardError, (error: Error, shardId: number) =>
      this.#deps.inbound.notice('gateway_error', { shardId }, error),
    );
    client.on(Events.Error, (error: Error) =>
      this.#deps.inbound.notice('gateway_error', undefined, error),
    );
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    // One wait ends at whichever comes first: the runtime's abort or `readyTimeoutMs`.
    const notReady = `the gateway was not ready within readyTimeoutMs (${gateway.readyTimeoutMs} ms)`;
    const readyBy = timeoutSignal(gateway.readyTimeoutMs, notReady);
    const until = anySignal([signal, readyBy.signal]);
    try {
      await abortable(
        client.login(options.token).catch((error: unknown) => {
          throw new DiscordGatewayError(
            `gateway login failed: ${(error as Error)?.message ?? String(error)}`,
            { cause: error },
          );
        }),
        until.signal,
      );
      await abortable(ready, until.signal);
      this.#phase = 'started';
    } catch (error) {
      this.#client = undefined;
      this.#phase = 'idle';
      await client.destroy().catch(() => undefined);
      if (readyBy.signal.aborted && error === readyBy.signal.reason) {
        throw new DiscordGatewayError(notReady, { cause: error });
      }
      throw error;
    } finally {
      readyBy.clear();
      until.dispose();
    }
  }

  #context(receivedAt: number): GatewayNormalizeContext {
    const { options } = this.#deps.inbound;
    const client = this.#client;
    return {
      adapter: options.name,
      receivedAt,
      applicationId: options.applicationId,
      botUserId: client?.user?.id,
      botMessages: this.#deps.gateway.botMessages,
      botRoleId: (guildId) => {
        const user = client?.user;
        if (user == null) return undefined;
        return client?.guilds.cache.get(guildId)?.roles.botRoleFor(user)?.id ?? undefined;
      },
      channelInfo: (id) => {
        const channel = client?.channels.cache.get(id);
        if (channel === undefined) return undefined;
        if (!channel.isThread()) return { thread: false };
        return channel.parentId !== null
          ? { thread: true, parentId: channel.parentId }
          : { thread: true };
      },
    };
  }

  #onPacket(packet: RawPacket): void {
    const t = packet?.t;
    if (typeof t !== 'string' || this.#phase === 'closed') return;
    try {
      const work = this.#handle(t, packet.d);
      if (work !== undefined) {
        void this.#inflight.track(
          work.catch((error: unknown) =>
            this.#deps.inbound.notice('gateway_handling_failed', { dispatch: t }, error),
          ),
        );
      }
    } catch (error) {
      this.#deps.inbound.notice('gateway_handling_failed', { dispatch: t }, error);
    }
  }

  #handle(t: string, d: unknown): Promise<void> | undefined {
    const { inbound, gateway } = this.#deps;
    const runtime = inbound.runtime();
    if (runtime === undefined) return undefined;
    const receivedAt = inbound.options.clock();
    if (t === 'INTERACTION_CREATE') {
      return gateway.interactions
        ? answerGatewayInteraction(inbound, this.#deps.rest, d, receivedAt)
        : undefined;
    }
    let normalized: GatewayNormalized<unknown> | undefined;
    const ctx = this.#context(receivedAt);
    if (t === 'MESSAGE_CREATE') {
      normalized = normalizeGatewayMessage(d as Parameters<typeof normalizeGatewayMessage>[0], ctx);
    } else if (t === 'MESSAGE_REACTION_ADD' || t === 'MESSAGE_REACTION_REMOVE') {
      if (gateway.reactions) normalized = normalizeGatewayReaction(t, d as GatewayReaction, ctx);
    } else if (t === 'THREAD_UPDATE' || t === 'THREAD_DELETE') {
      // A thread's end ends its subscription; any other update is raw only when asked for.
      normalized =
        normalizeGatewayThreadEnd(t, d, ctx) ??
        (gateway.rawDispatches.has(t) ? normalizeGatewayDispatch(t, d, ctx) : undefined);
    } else if (gateway.rawDispatches.has(t)) {
      normalized = normalizeGatewayDispatch(t, d, ctx);
    }
    if (normalized === undefined || normalized.type === 'ignore') return undefined;
    const dispatchDeps: GatewayDispatchDeps = {
      busyText: inbound.options.busyText,
      unavailableText: inbound.options.unavailableText,
      refusals: this.#refusals,
      notice: inbound.notice,
    };
    return dispatchGatewayEvent(dispatchDeps, runtime, normalized.event);
  }

  /**
   * Waits for the dispatches and interaction answers in flight when called (each resolves once its
   * dispatch did, an interaction's callback bounded by Discord's 3 s) and the busy signals started
   * by then; the connection stays open so that what arrives meanwhile is refused visibly (the
   * runtime's admission is closed). Rejects with `signal.reason` on abort.
   */
  async stop(signal?: AbortSignal): Promise<void> {
    await this.#inflight.settledNow(signal);
    await this.#refusals.drain(signal);
  }

  /**
   * Closes the gateway for good: stops watching the connection, `client.destroy()` (close frame
   * 1000, the session invalidated, no reconnect), then waits for the answers and busy signals
   * started before (they go over REST, not the gateway). Memoized. Rejects with `signal.reason`
   * when `signal` aborts first; the client is destroyed regardless.
   */
  close(signal?: AbortSignal): Promise<void> {
    this.#closed ??= this.#close();
    return signal === undefined ? this.#closed : abortable(this.#closed, signal);
  }

  async #close(): Promise<void> {
    this.#phase = 'closing';
    this.#watching = false;
    for (const watch of this.#watches.values()) watch.dispose();
    const client = this.#client;
    await this.#started?.catch(() => undefined);
    await (this.#client ?? client)?.destroy().catch((error: unknown) => {
      this.#deps.inbound.notice('gateway_error', { during: 'destroy' }, error);
    });
    this.#phase = 'closed';
    await this.#inflight.settledNow();
    await this.#refusals.drain();
  }
}
