import { describe, expect, it } from 'vitest';
import { DEFAULT_OTEL_OBSERVER_OPTIONS, otelObserver } from './index.js';

describe('otelObserver options', () => {
  it('has frozen defaults', () => {
    expect(Object.isFrozen(DEFAULT_OTEL_OBSERVER_OPTIONS)).toBe(true);
    expect(DEFAULT_OTEL_OBSERVER_OPTIONS.tenantCardinality).toBe(20);
  });

  it.each([
    [{ tenantCardinality: -1 }, RangeError, /tenantCardinality/],
    [{ tenantCardinality: 1.5 }, RangeError, /tenantCardinality/],
    [{ meterProvider: {} }, TypeError, /meterProvider/],
    [{ tracerProvider: 'global' }, TypeError, /tracerProvider/],
    [{ traceUnrouted: 'yes' }, TypeError, /traceUnrouted/],
    [{ recordErrorMessages: 1 }, TypeError, /recordErrorMessages/],
    [{ onError: 'log' }, TypeError, /onError/],
  ])('rejects %o naming the option', (options, type, message) => {
    expect(() => otelObserver(options as never)).toThrow(type);
    expect(() => otelObserver(options as never)).toThrow(message);
  });

  it('rejects options that are not an object', () => {
    expect(() => otelObserver(null as never)).toThrow(TypeError);
  });
});
