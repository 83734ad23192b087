import type { RuntimeHandle } from '@rt/core';
import type { PendingSet } from '@rt/core/adapter';
import type { ResolvedSlackOptions } from '../options.js';
import type { FollowUpRunner } from '../respond/follow-up.js';

/** What the request handler needs from its adapter. */
export interface RequestHandlerDeps {
  readonly options: ResolvedSlackOptions;
  /** The attached runtime, or `undefined` before `attach`. */
  runtime(): RuntimeHandle | undefined;
  readonly followUps: FollowUpRunner;
  /**
   * Answers being built from a dispatch (each bounded by `ackDeadlineMs`), tracked until the answer
   * and its follow-up, if any, have been handed over, so `stop()` can wait for them.
   */
  readonly answering: PendingSet;
}

/**
 * Emits an `adapter_notice` named `name` through the attached runtime. Does nothing before
 * `attach`; nothing it does (an observer that throws, ...) ever breaks the request. `at` is the
 * wall clock, like every other observation's.
 */
export function notice(
  deps: RequestHandlerDeps,
  name: string,
  detail?: Readonly<Record<string, unknown>>,
  error?: unknown,
): void {
  try {
    const runtime = deps.runtime();
    if (runtime === undefined) return;
    runtime.observe({
      type: 'adapter_notice',
      at: Date.now(),
      adapter: deps.options.name,
      name,
      ...(detail !== undefined ? { detail } : {}),
      ...(error !== undefined ? { error } : {}),
    });
  } catch {
    // Observation must never break a request.
  }
}
