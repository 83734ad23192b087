import type { DispatchMode } from '../observe/observation.js';
import { checkNonEmptyText, checkPositiveInteger } from './option-checks.js';

/**
 * The options of how an adapter answers a platform that waits a few seconds for its
 * acknowledgement: the refusal texts, the two deadlines, the per-shape dispatch modes and the
 * clock. An adapter's options interface extends it with its own `Shape` union and redeclares
 * `dispatchModes` to document its defaults; its README names the platform calls behind each text.
 */
export interface AnswerOptions<Shape extends string> {
  /** Text of the visible busy signal when admission is refused for capacity. */
  readonly busyText?: string | undefined;
  /** Text of the visible signal when the runtime is shutting down or its State failed. */
  readonly unavailableText?: string | undefined;
  /**
   * Time budget of each late busy signal: a follow-up call telling the user that an acknowledged
   * delivery was dropped. The call is aborted when it runs out; failures become `adapter_notice`
   * observations named `busy_signal_failed`. It never delays the acknowledgement. Default 2000.
   */
  readonly busySignalTimeoutMs?: number | undefined;
  /**
   * The latest moment, counted from the request's receipt, at which a dispatched delivery is
   * answered (the platform gives up after its own limit: 3 s on Slack and Discord). When the
   * dispatch has not produced its answer by then (a sync handler ignoring its signal, a State slow
   * to mark), the adapter answers as for a refusal with `unavailableText`, emits an
   * `adapter_notice` named `ack_deadline_passed`, and lets the dispatch go on without answering
   * again. A positive integer, at most the platform's limit. Default 2500.
   */
  readonly ackDeadlineMs?: number | undefined;
  /**
   * When the abort signal of sync dispatches fires, counted from the request's receipt, so a
   * handler that honours it still answers within `ackDeadlineMs`. A positive integer below
   * `ackDeadlineMs`. Default 80 % of `ackDeadlineMs` (2000).
   */
  readonly syncDeadlineMs?: number | undefined;
  /**
   * The adapter's dispatch mode per shape (`'sync'` or `'deferred'`), merged over its defaults.
   * Runtime `dispatchModes` still take precedence. An unknown shape or mode throws `TypeError`.
   */
  readonly dispatchModes?: Readonly<Partial<Record<Shape, DispatchMode>>> | undefined;
  /**
   * The adapter's wall clock (epoch ms): `RtEvent.receivedAt`, and any window the adapter checks
   * against now (a request signature's timestamp). Default `Date.now`.
   */
  readonly clock?: (() => number) | undefined;
}

/** Defaults of the answer options every adapter shares (`dispatchModes` is the adapter's own). */
export const DEFAULT_ANSWER_OPTIONS = Object.freeze({
  busyText: 'This app is busy right now. Please try again in a moment.',
  unavailableText: 'This app is temporarily unavailable. Please try again in a moment.',
  busySignalTimeoutMs: 2000,
  ackDeadlineMs: 2500,
  syncDeadlineMs: 2000,
});

/** Answer options with defaults filled in and validated. */
export interface ResolvedAnswerOptions<Shape extends string> {
  readonly busyText: string;
  readonly unavailableText: string;
  readonly busySignalTimeoutMs: number;
  readonly ackDeadlineMs: number;
  readonly syncDeadlineMs: number;
  /** The adapter's defaults with the user's modes over them; frozen. */
  readonly dispatchModes: Readonly<Partial<Record<Shape, DispatchMode>>>;
  readonly clock: () => number;
}

/** What the platform and the adapter fix about answering: the frame the options are checked in. */
export interface AnswerPlatform<Shape extends string> {
  /** The platform's name as errors print it (`Slack`). */
  readonly name: string;
  /** The platform's own limit on the first answer, in ms (3000 for Slack and Discord). */
  readonly ackLimitMs: number;
  /** Every shape the adapter tells apart; `dispatchModes` may name only these. */
  readonly shapes: readonly Shape[];
  /** The adapter's default mode per shape, under the user's `dispatchModes`. */
  readonly dispatchModes: Readonly<Partial<Record<Shape, DispatchMode>>>;
}

const MODES: readonly string[] = ['sync', 'deferred'];

/**
 * Validates the `dispatchModes` option (`undefined`, or an object of known shape → `'sync'` |
 * `'deferred'`) and returns it merged over `defaults`, frozen. Throws `TypeError` naming the option
 * and the offending shape or mode.
 */
export function resolveShapeModes<Shape extends string>(
  value: unknown,
  shapes: readonly Shape[],
  defaults: Readonly<Partial<Record<Shape, DispatchMode>>>,
): Readonly<Partial<Record<Shape, DispatchMode>>> {
  if (value === undefined) return Object.freeze({ ...defaults });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('dispatchModes must be an object of shape → "sync" | "deferred"');
  }
  for (const [shape, mode] of Object.entries(value)) {
    if (!(shapes as readonly string[]).includes(shape)) {
      throw new TypeError(
        `dispatchModes names an unknown shape ${JSON.stringify(shape)} (expected one of ${shapes.join(', ')})`,
      );
    }
    if (!MODES.includes(mode as string)) {
      throw new TypeError(
        `dispatchModes.${shape} must be "sync" or "deferred", got ${JSON.stringify(mode)}`,
      );
    }
  }
  return Object.freeze({ ...defaults, ...(value as Partial<Record<Shape, DispatchMode>>) });
}

function deadlinesOf(
  options: { readonly ackDeadlineMs?: number; readonly syncDeadlineMs?: number },
  platform: string,
  limit: number,
): { ackDeadlineMs: number; syncDeadlineMs: number } {
  const ackDeadlineMs = checkPositiveInteger(
    'ackDeadlineMs',
    options.ackDeadlineMs ?? DEFAULT_ANSWER_OPTIONS.ackDeadlineMs,
  );
  if (ackDeadlineMs > limit) {
    throw new RangeError(
      `ackDeadlineMs must be at most ${limit} (${platform} waits ${limit / 1000} s), got ${ackDeadlineMs}`,
    );
  }
  const syncDeadlineMs = checkPositiveInteger(
    'syncDeadlineMs',
    options.syncDeadlineMs ?? Math.max(1, Math.floor(ackDeadlineMs * 0.8)),
  );
  if (syncDeadlineMs >= ackDeadlineMs) {
    throw new RangeError(
      `syncDeadlineMs must be below ackDeadlineMs (${ackDeadlineMs}), got ${syncDeadlineMs}`,
    );
  }
  return { ackDeadlineMs, syncDeadlineMs };
}

/**
 * Fills in the answer options' defaults and validates them against `platform`: texts non-empty
 * (`TypeError`), `busySignalTimeoutMs` a positive integer, `ackDeadlineMs` a positive integer at
 * most `platform.ackLimitMs`, `syncDeadlineMs` a positive integer below it (default 80 % of it)
 * (`RangeError`), `dispatchModes` as `resolveShapeModes`, `clock` a function (`TypeError`). Every
 * error names the option. Other keys of `options` are ignored.
 */
export function resolveAnswerOptions<Shape extends string>(
  options: AnswerOptions<Shape>,
  platform: AnswerPlatform<Shape>,
): ResolvedAnswerOptions<Shape> {
  const d = DEFAULT_ANSWER_OPTIONS;
  const clock = options.clock ?? Date.now;
  if (typeof clock !== 'function') {
    throw new TypeError('clock must be a function returning epoch ms');
  }
  return Object.freeze({
    busyText: checkNonEmptyText('busyText', options.busyText ?? d.busyText),
    unavailableText: checkNonEmptyText(
      'unavailableText',
      options.unavailableText ?? d.unavailableText,
    ),
    busySignalTimeoutMs: checkPositiveInteger(
      'busySignalTimeoutMs',
      options.busySignalTimeoutMs ?? d.busySignalTimeoutMs,
    ),
    ...deadlinesOf(options, platform.name, platform.ackLimitMs),
    dispatchModes: resolveShapeModes(
      options.dispatchModes,
      platform.shapes,
      platform.dispatchModes,
    ),
    clock,
  });
}
