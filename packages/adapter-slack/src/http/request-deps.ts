import type { Observation, RuntimeHandle } from '@rt/core';
import type { ResolvedSlackOptions } from '../options.js';
import type { FollowUpRunner } from '../respond/follow-up.js';
import type { PendingSet } from '../util/pending-set.js';

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
 * `attach`; an observer that throws never breaks the request.
 */
export function notice(
  deps: RequestHandlerDeps,
  name: string,
  detail?: Readonly<Record<string, unknown>>,
  error?: unknown,
): void {
  const runtime = deps.runtime();
  if (runtime === undefined) return;
  const observation: Observation = {
    type: 'adapter_notice',
    at: deps.options.clock(),
    adapter: deps.options.name,
    name,
    ...(detail !== undefined ? { detail } : {}),
    ...(error !== undefined ? { error } : {}),
  };
  try {
    runtime.observe(observation);
  } catch {
    // Observation must never break a request.
  }
}
