/** Base class of every error `@rt/otel` creates; `code` is stable across versions. */
export class RtOtelError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * Recording a metric or span failed (a meter, tracer or processor threw). Handed to
 * `OtelObserverOptions.onError` with the original error as `cause`; it never reaches dispatch or
 * a handler.
 */
export class RecordingError extends RtOtelError {
  /** The observation type or step that was being recorded (`dispatch_finished`, `aroundHandler`...). */
  readonly step: string;

  constructor(step: string, cause: unknown) {
    super('RT_OTEL_RECORDING_FAILED', `@rt/otel could not record ${step}`, { cause });
    this.step = step;
  }
}

/** `bindRuntime` was called while another runtime is bound to the same observer. */
export class AlreadyBoundError extends RtOtelError {
  constructor() {
    super(
      'RT_OTEL_ALREADY_BOUND',
      'this otelObserver is already bound to a runtime: call the unbind function first',
    );
  }
}
