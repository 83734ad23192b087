import { types } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyRefusal } from './adapter-kit/refusal.js';
import { AdmissionRejectedError, hasErrorCode, PreludeError, RtError } from './errors.js';

const defaultLimit = Error.stackTraceLimit;

afterEach(() => {
  Error.stackTraceLimit = defaultLimit;
});

describe('AdmissionRejectedError', () => {
  it('is built without stack frames, yet stays a native error of its class', () => {
    const error = new AdmissionRejectedError('capacity', 'slack', 'T1');
    expect(error).toBeInstanceOf(AdmissionRejectedError);
    expect(error).toBeInstanceOf(RtError);
    expect(error).toBeInstanceOf(Error);
    expect(types.isNativeError(error)).toBe(true);
    expect(error.stack).toBe(
      'AdmissionRejectedError: delivery rejected (capacity) for adapter "slack", tenant "T1"',
    );
    expect(error.stack).not.toContain('\n');
  });

  it('carries its code, reason, adapter and tenant, and classifies as before', () => {
    const busy = new AdmissionRejectedError('tenant-capacity', 'discord', 'G1');
    expect(busy.name).toBe('AdmissionRejectedError');
    expect(busy.code).toBe('RT_ADMISSION_REJECTED');
    expect(hasErrorCode(busy, 'RT_ADMISSION_REJECTED')).toBe(true);
    expect([busy.reason, busy.adapter, busy.tenant]).toEqual(['tenant-capacity', 'discord', 'G1']);
    expect(busy.message).toBe(
      'delivery rejected (tenant-capacity) for adapter "discord", tenant "G1"',
    );
    expect(classifyRefusal(busy)).toBe('busy');
    expect(classifyRefusal(new AdmissionRejectedError('shutdown', 'slack', 'T1'))).toBe(
      'unavailable',
    );
  });

  it('leaves Error.stackTraceLimit as it found it, so other errors keep their frames', () => {
    Error.stackTraceLimit = 7;
    new AdmissionRejectedError('capacity', 'slack', 'T1');
    expect(Error.stackTraceLimit).toBe(7);
    const other = new PreludeError('the State failed');
    expect(other.stack?.split('\n').length).toBeGreaterThan(1);
  });

  it('keeps a stack where Error.stackTraceLimit cannot be written (frozen intrinsics)', () => {
    const descriptor = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')!;
    Object.defineProperty(Error, 'stackTraceLimit', { ...descriptor, writable: false });
    try {
      const error = new AdmissionRejectedError('capacity', 'slack', 'T1');
      expect(error.reason).toBe('capacity');
      expect(error.stack?.split('\n').length).toBeGreaterThan(1);
      expect(Error.stackTraceLimit).toBe(descriptor.value);
    } finally {
      Object.defineProperty(Error, 'stackTraceLimit', descriptor);
    }
  });
});
