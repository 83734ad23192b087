import {
  type FakeDiscordGateway,
  type FakeDiscordGatewayOptions,
  startFakeDiscordGateway,
} from './fake-gateway.js';
import {
  type FakeDiscordRest,
  type FakeDiscordRestOptions,
  startFakeDiscordRest,
} from './fake-rest.js';

/** A fake Discord REST API and the fake gateway its `GET /gateway/bot` points at. */
export interface FakeDiscord {
  readonly rest: FakeDiscordRest;
  readonly gateway: FakeDiscordGateway;
  /** Closes both. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts a fake gateway and a fake REST API that reports it from `GET /gateway/bot`: give the
 * adapter (and the discord.js Client's `rest.api`) `rest.url`, and the real Client connects to
 * `gateway`; its replies land in `rest.calls`.
 */
export async function startFakeDiscord(
  options: {
    readonly rest?: Omit<FakeDiscordRestOptions, 'gatewayUrl'>;
    readonly gateway?: FakeDiscordGatewayOptions;
  } = {},
): Promise<FakeDiscord> {
  const gateway = await startFakeDiscordGateway(options.gateway);
  const rest = await startFakeDiscordRest({ ...options.rest, gatewayUrl: gateway.url });
  let closing: Promise<void> | undefined;
  return {
    rest,
    gateway,
    close() {
      closing ??= Promise.all([gateway.close(), rest.close()]).then(() => undefined);
      return closing;
    },
  };
}
