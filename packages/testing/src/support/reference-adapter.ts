/**
 * A small HTTP adapter shaped like Discord's interactions endpoint (Ed25519 signatures over
 * timestamp + body, JSON bodies, JSON callbacks, a busy follow-up after the ack), written only to
 * test the adapter conformance suite: it passes the suite, and each `ReferenceFlaw` breaks one
 * rule the suite must catch. Private to this package's tests: not exported, and kept out of `dist`
 * by `tsconfig.build.json`.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import {
  type Adapter,
  type DispatchResult,
  hasErrorCode,
  type PostedMessage,
  type RtEvent,
} from '@rt/core';
import { type RuntimeHandle, readBodyUpTo } from '@rt/core/adapter';
import { createDiscordSigner } from '../discord/sign.js';

/** One rule the reference adapter can be told to break. */
export type ReferenceFlaw =
  /** Dispatches before checking the signature (answers 401 only afterwards). */
  | 'dispatch-before-verify'
  /** Answers a refusal like an acceptance (a fake success). */
  | 'refusal-as-success'
  /** `stop()`/`drain()` wait for a moment without requests or follow-ups (never, under traffic). */
  | 'drain-waits-for-all'
  /** Reads bodies without a limit. */
  | 'no-body-limit';

/** A payload of the reference protocol. */
export interface ReferencePayload {
  readonly id: string;
  readonly type: 'command' | 'component' | 'autocomplete';
  readonly tenant: string;
  readonly channel: string;
  readonly text?: string;
}

/** What the reference platform recorded: busy follow-ups sent after an ack. */
export interface ReferenceCall {
  readonly method: 'followup';
  readonly content: string;
}

export const REFERENCE_BODY_LIMIT_BYTES = 4096;
/**
 * How long a busy follow-up takes. Long enough that, under the suite's traffic, a follow-up is
 * always in flight, so the `drain-waits-for-all` flaw never sees an empty set.
 */
const FOLLOW_UP_MS = 20;
const EPHEMERAL = 64;

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
const status = (code: number) => new Response(null, { status: code });

/** The DER prefix of an Ed25519 SPKI public key: the raw 32-byte key follows it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * The signer of the reference platform: `createDiscordSigner()` (the same Ed25519 scheme), with
 * `request(body, 'valid' | 'invalid' | 'missing')` signing with its key, with another key, or not
 * at all.
 */
export function referenceSigner(): {
  publicKey: string;
  request(body: string, signature: 'valid' | 'invalid' | 'missing'): Request;
} {
  const signer = createDiscordSigner();
  const other = createDiscordSigner();
  return {
    publicKey: signer.publicKey,
    request(body, signature) {
      if (signature === 'missing') return signer.request(body, { unsigned: true });
      return (signature === 'valid' ? signer : other).request(body);
    },
  };
}

/** The reference adapter: `handler` serves the endpoint; `calls` is the platform's record. */
export class ReferenceAdapter implements Adapter {
  readonly name = 'reference';
  readonly calls: ReferenceCall[] = [];
  readonly #followUps = new Set<Promise<void>>();
  readonly #flaws: ReadonlySet<ReferenceFlaw>;
  readonly #texts: { busy: string; unavailable: string };
  readonly #publicKey: KeyObject;
  #runtime: RuntimeHandle | undefined;
  #requestsSeen = 0;

  constructor(options: {
    /** The raw Ed25519 public key as 64 hex characters (`referenceSigner().publicKey`). */
    publicKey: string;
    busyText: string;
    unavailableText: string;
    flaws?: readonly ReferenceFlaw[];
  }) {
    this.#publicKey = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(options.publicKey, 'hex')]),
      format: 'der',
      type: 'spki',
    });
    this.#texts = { busy: options.busyText, unavailable: options.unavailableText };
    this.#flaws = new Set(options.flaws ?? []);
  }

  attach(runtime: RuntimeHandle): void {
    this.#runtime = runtime;
  }

  dispatchModeFor(event: RtEvent) {
    return event.shape === 'autocomplete' ? ('sync' as const) : undefined;
  }

  async reply(event: RtEvent): Promise<PostedMessage> {
    return { channel: event.channel ?? '', id: `${event.id}-reply` };
  }

  /** Waits for the follow-ups started before the call (each takes `FOLLOW_UP_MS`). */
  async stop(): Promise<void> {
    if (this.#flaws.has('drain-waits-for-all')) {
      // Waits for two event-loop turns without a request and without a follow-up: a quiet
      // moment, which continuous traffic never gives.
      for (let quiet = 0; quiet < 2; ) {
        this.#requestsSeen = 0;
        await Promise.all([...this.#followUps]);
        await new Promise((resolve) => setImmediate(resolve));
        quiet = this.#requestsSeen === 0 && this.#followUps.size === 0 ? quiet + 1 : 0;
      }
      return;
    }
    await Promise.all([...this.#followUps]);
  }

  drain(): Promise<void> {
    return this.stop();
  }

  readonly handler = async (request: Request): Promise<Response> => {
    this.#requestsSeen += 1;
    const runtime = this.#runtime;
    if (runtime === undefined) return status(503);
    const body = await readBodyUpTo(
      request,
      this.#flaws.has('no-body-limit') ? Number.MAX_SAFE_INTEGER : REFERENCE_BODY_LIMIT_BYTES,
    );
    const signature = request.headers.get('x-signature-ed25519');
    const timestamp = request.headers.get('x-signature-timestamp');
    if (body.type === 'too-large') return status(signature && timestamp ? 413 : 401);
    if (body.type === 'unreadable') return status(400);
    const verified =
      signature !== null &&
      timestamp !== null &&
      /^[0-9a-f]{128}$/.test(signature) &&
      verify(
        null,
        Buffer.from(timestamp + body.text),
        this.#publicKey,
        Buffer.from(signature, 'hex'),
      );
    if (!verified && !this.#flaws.has('dispatch-before-verify')) return status(401);
    let payload: ReferencePayload;
    try {
      payload = JSON.parse(body.text) as ReferencePayload;
    } catch {
      return status(400);
    }
    if (!['command', 'component', 'autocomplete'].includes(payload?.type)) return status(400);
    const answer = await this.#dispatch(runtime, payload);
    return verified ? answer : status(401);
  };

  async #dispatch(runtime: RuntimeHandle, payload: ReferencePayload): Promise<Response> {
    const event: RtEvent = {
      adapter: this.name,
      tenant: payload.tenant,
      id: payload.id,
      kind: payload.type === 'autocomplete' ? 'suggestion' : 'command',
      shape: payload.type,
      channel: payload.channel,
      text: payload.text ?? '',
      receivedAt: Date.now(),
      payload,
    };
    let result: DispatchResult;
    try {
      result = await runtime.dispatch(event);
    } catch (error) {
      const busy =
        hasErrorCode(error, 'RT_ADMISSION_REJECTED') &&
        (error as { reason?: string }).reason !== 'shutdown';
      return this.#refuse(payload, busy ? this.#texts.busy : this.#texts.unavailable);
    }
    if (payload.type === 'autocomplete') {
      const choices = result.status === 'completed' ? result.response : [];
      return json({ type: 8, data: { choices } });
    }
    return json({ type: payload.type === 'command' ? 5 : 6 });
  }

  #refuse(payload: ReferencePayload, text: string): Response {
    if (this.#flaws.has('refusal-as-success') && payload.type !== 'autocomplete') {
      return json({ type: payload.type === 'command' ? 5 : 6 });
    }
    switch (payload.type) {
      case 'autocomplete':
        return json({ type: 8, data: { choices: [{ name: text, value: 'busy' }] } });
      case 'command':
        return json({ type: 4, data: { content: text, flags: EPHEMERAL } });
      case 'component': {
        const followUp = new Promise<void>((resolve) => setTimeout(resolve, FOLLOW_UP_MS)).then(
          () => {
            this.calls.push({ method: 'followup', content: text });
          },
        );
        const tracked = followUp.finally(() => this.#followUps.delete(tracked));
        this.#followUps.add(tracked);
        return json({ type: 6 });
      }
    }
  }
}
