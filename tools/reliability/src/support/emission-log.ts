import { inspect } from 'node:util';
import type { Observation, Observer } from '@rt/core';
import { type ObservationLog, observationLog } from '@rt/testing';

/**
 * Everything a run emitted that an operator could read: every observation (errors rendered with
 * message, stack and cause chain, as a logger would print them), every console line, and every
 * response body and header a client received. `leaks(secrets)` finds any secret in any of it.
 */
export class EmissionLog {
  /** The observations, through `@rt/testing`'s log (so tests may also wait on them). */
  readonly log: ObservationLog = observationLog();
  readonly #texts: string[] = [];
  #restoreConsole: (() => void) | undefined;

  /** An observer that records (and renders) every observation. */
  readonly observer: Observer = (observation) => {
    this.log.observer(observation);
    this.#texts.push(inspect(observation, { depth: 8, breakLength: Number.POSITIVE_INFINITY }));
  };

  /** Every observation so far, in emission order. */
  get observations(): readonly Observation[] {
    return this.log.observations;
  }

  /** Records some emitted text (a response body, a header, a log line). */
  add(text: string): void {
    this.#texts.push(text);
  }

  /**
   * Records what reaches `console.*` until `stopConsoleCapture()`, instead of printing it (a
   * logging observer under a flood would drown the test output).
   */
  captureConsole(): void {
    const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
    const originals = methods.map((name) => console[name]);
    for (const name of methods) {
      console[name] = (...args: unknown[]) => {
        this.#texts.push(args.map((arg) => inspect(arg, { depth: 8 })).join(' '));
      };
    }
    this.#restoreConsole = () => {
      for (const [i, name] of methods.entries()) console[name] = originals[i]!;
    };
  }

  stopConsoleCapture(): void {
    this.#restoreConsole?.();
    this.#restoreConsole = undefined;
  }

  /** How many texts were recorded (so a scan of nothing cannot pass unnoticed). */
  get size(): number {
    return this.#texts.length;
  }

  /** Each secret found, with the first text it appeared in. Empty when nothing leaked. */
  leaks(secrets: readonly string[]): { secret: string; in: string }[] {
    const found: { secret: string; in: string }[] = [];
    for (const secret of secrets) {
      if (secret.length < 8) throw new RangeError('secrets to scan for must be at least 8 chars');
      const text = this.#texts.find((t) => t.includes(secret));
      if (text !== undefined) found.push({ secret, in: text.slice(0, 300) });
    }
    return found;
  }
}
