/**
 * The suite's own tests: a reference adapter shaped like Discord's interactions endpoint (Ed25519,
 * JSON bodies, JSON callbacks, a busy follow-up after the ack) passes it, and each flaw it can be
 * given makes the check that guards that rule fail (`it.fails`).
 */
import { createRuntime } from '@rt/core';
import { describe, expect, it } from 'vitest';
import { markOnlyState } from '../../support/mark-only-state.js';
import {
  REFERENCE_BODY_LIMIT_BYTES,
  ReferenceAdapter,
  type ReferenceCall,
  type ReferenceFlaw,
  type ReferencePayload,
  referenceSigner,
} from '../../support/reference-adapter.js';
import { defineConvergenceTests } from './conformance-convergence.js';
import type {
  AdapterConformanceOptions,
  ConformanceShape,
  ExpectedAnswer,
  ReceivedAnswer,
} from './conformance-options.js';
import { defineSaturatedTest, defineShutdownRefusalTest } from './conformance-refusals.js';
import { createSessions } from './conformance-session.js';
import { defineOversizeTest, defineSignatureTests } from './conformance-verification.js';
import { runAdapterConformance } from './run-adapter-conformance.js';

const signer = referenceSigner();
let sequence = 0;

const payloadOf = (type: ReferencePayload['type'], text = 'hi'): ReferencePayload => {
  sequence += 1;
  return { id: `i-${sequence}`, type, tenant: 'G1', channel: `C${sequence}`, text };
};

/** An answer whose JSON body is `body`. */
const jsonAnswer = (body: unknown): ExpectedAnswer => ({
  status: 200,
  check: (answer: ReceivedAnswer) => expect(answer.json).toEqual(body),
});

const COMMAND: ConformanceShape<ReferencePayload> = {
  name: 'command',
  payload: () => payloadOf('command'),
  accepted: jsonAnswer({ type: 5 }),
  refused: (text) => jsonAnswer({ type: 4, data: { content: text, flags: 64 } }),
};

const COMPONENT: ConformanceShape<ReferencePayload> = {
  name: 'component',
  payload: () => payloadOf('component'),
  accepted: jsonAnswer({ type: 6 }),
  refused: (text) => ({
    ...jsonAnswer({ type: 6 }),
    followUp: (calls) =>
      expect(calls).toEqual([{ method: 'followup', content: text } satisfies ReferenceCall]),
  }),
};

const AUTOCOMPLETE: ConformanceShape<ReferencePayload> = {
  name: 'autocomplete',
  sync: true,
  payload: () => payloadOf('autocomplete', 'ab'),
  accepted: jsonAnswer({ type: 8, data: { choices: [{ name: 'ab result', value: 'ab-1' }] } }),
  refused: (text) => jsonAnswer({ type: 8, data: { choices: [{ name: text, value: 'busy' }] } }),
};

function optionsFor(
  flaws: readonly ReferenceFlaw[] = [],
): AdapterConformanceOptions<ReferencePayload> {
  return {
    createBot({ runtime, busyText, unavailableText, state }) {
      const adapter = new ReferenceAdapter({
        publicKey: signer.publicKey,
        busyText,
        unavailableText,
        flaws,
      });
      const used = state ?? markOnlyState();
      return {
        runtime: createRuntime({ ...runtime, state: used, adapters: [adapter] }),
        state: used,
        adapterName: adapter.name,
        send: adapter.handler,
        platformCalls: async () => {
          await adapter.drain();
          return [...adapter.calls];
        },
        close: async () => {
          if (state === undefined) await used.close();
        },
      };
    },
    request: (payload, signature) => signer.request(JSON.stringify(payload), signature),
    shapes: [COMMAND, COMPONENT, AUTOCOMPLETE],
    oversizedPayload: () => payloadOf('command', 'x'.repeat(REFERENCE_BODY_LIMIT_BYTES)),
    unparsable: [
      { name: 'truncated JSON', request: () => signer.request('{"id":"i-0",', 'valid') },
      {
        name: 'an unknown type',
        request: () =>
          signer.request(JSON.stringify({ ...payloadOf('command'), type: 'x' }), 'valid'),
      },
    ],
    answer: (event) =>
      event.shape === 'autocomplete'
        ? [{ name: `${event.text} result`, value: 'ab-1' }]
        : undefined,
  };
}

runAdapterConformance('a reference adapter (Ed25519 signatures, JSON callbacks)', optionsFor());

describe('the adapter conformance suite fails an adapter that', () => {
  describe('dispatches before verifying the signature', () => {
    const sessions = createSessions(optionsFor(['dispatch-before-verify']));
    defineSignatureTests(sessions, COMMAND, it.fails);
  });

  describe('answers a refusal like an acceptance', () => {
    const sessions = createSessions(optionsFor(['refusal-as-success']));
    defineSaturatedTest(sessions, COMMAND, it.fails);
    defineShutdownRefusalTest(sessions, COMPONENT, it.fails);
  });

  describe('reads bodies without a limit', () => {
    const sessions = createSessions(optionsFor(['no-body-limit']));
    defineOversizeTest(sessions, optionsFor(['no-body-limit']), it.fails);
  });

  describe('drains until traffic pauses, so never while clients keep sending', () => {
    const options = optionsFor(['drain-waits-for-all']);
    defineConvergenceTests(createSessions(options), options, it.fails);
  });
});

describe('runAdapterConformance', () => {
  it('refuses an empty shape table or no unparsable body', () => {
    expect(() => runAdapterConformance('x', { ...optionsFor(), shapes: [] })).toThrow(TypeError);
    expect(() => runAdapterConformance('x', { ...optionsFor(), unparsable: [] })).toThrow(
      TypeError,
    );
  });
});
