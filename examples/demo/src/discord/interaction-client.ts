import type { DiscordSigner } from '@rt/testing/discord';

/** Discord waits this long for an interaction's first answer, then shows "did not respond". */
export const DISCORD_ACK_TIMEOUT_MS = 3000;

/** The interaction response Discord read from the bot's HTTP answer. */
export interface InteractionAnswer {
  /** Callback type: 4 message, 5 deferred message, 6 deferred update, 8 autocomplete choices. */
  readonly type: number | undefined;
  /** `data.flags` (64 ephemeral). */
  readonly flags: number;
  /** `data.content`, when a message. */
  readonly content: string | undefined;
  /** `data.choices`, when autocomplete. */
  readonly choices: readonly { readonly name: string; readonly value: unknown }[];
}

/** How one interaction POST ended, as Discord would see it. */
export type InteractionResult =
  | {
      readonly kind: 'response';
      readonly status: number;
      /** The parsed answer of a 200 with a JSON body; `undefined` otherwise. */
      readonly answer: InteractionAnswer | undefined;
      readonly latencyMs: number;
    }
  /** No complete answer within `DISCORD_ACK_TIMEOUT_MS` by the simulator's clock. */
  | { readonly kind: 'timeout'; readonly latencyMs: number }
  | { readonly kind: 'connection_failed'; readonly latencyMs: number; readonly error: unknown };

function answerOf(body: string): InteractionAnswer | undefined {
  try {
    const parsed = JSON.parse(body) as {
      type?: unknown;
      data?: { flags?: unknown; content?: unknown; choices?: unknown };
    };
    const data = parsed.data ?? {};
    return {
      type: typeof parsed.type === 'number' ? parsed.type : undefined,
      flags: typeof data.flags === 'number' ? data.flags : 0,
      content: typeof data.content === 'string' ? data.content : undefined,
      choices: Array.isArray(data.choices) ? (data.choices as InteractionAnswer['choices']) : [],
    };
  } catch {
    return undefined;
  }
}

/**
 * Posts interactions the way Discord does: JSON, signed with Ed25519 over timestamp + body
 * (`X-Signature-Ed25519`, `X-Signature-Timestamp`, by `@rt/testing/discord`'s signer), abandoned
 * after `DISCORD_ACK_TIMEOUT_MS`. A response read completely but later than that by `now` is a
 * timeout too. Never throws; Discord never redelivers, so one call is all an interaction gets.
 */
export class InteractionClient {
  readonly #url: string;
  readonly #signer: DiscordSigner;
  readonly #now: () => number;

  constructor(url: string, signer: DiscordSigner, now: () => number = () => performance.now()) {
    this.#url = url;
    this.#signer = signer;
    this.#now = now;
  }

  async deliver(interaction: Record<string, unknown>): Promise<InteractionResult> {
    const started = this.#now();
    const latency = () => Math.round(this.#now() - started);
    const signal = AbortSignal.timeout(DISCORD_ACK_TIMEOUT_MS);
    const body = JSON.stringify(interaction);
    try {
      const response = await fetch(this.#url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.#signer.sign(body) },
        body,
        signal,
      });
      const text = await response.text();
      const latencyMs = latency();
      if (latencyMs > DISCORD_ACK_TIMEOUT_MS) return { kind: 'timeout', latencyMs };
      const answer = response.status === 200 ? answerOf(text) : undefined;
      return { kind: 'response', status: response.status, answer, latencyMs };
    } catch (error) {
      if (signal.aborted) return { kind: 'timeout', latencyMs: latency() };
      return { kind: 'connection_failed', latencyMs: latency(), error };
    }
  }
}
