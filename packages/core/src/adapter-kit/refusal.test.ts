import { describe, expect, it } from 'vitest';
import { AdmissionRejectedError, InvalidEventError, PreludeError } from '../errors.js';
import { classifyRefusal } from './refusal.js';

describe('classifyRefusal', () => {
  it('calls a full bound or tenant ceiling busy', () => {
    expect(classifyRefusal(new AdmissionRejectedError('capacity', 'slack', 'T1'))).toBe('busy');
    expect(classifyRefusal(new AdmissionRejectedError('tenant-capacity', 'slack', 'T1'))).toBe(
      'busy',
    );
  });

  it('calls shutdown and a failed prelude unavailable', () => {
    expect(classifyRefusal(new AdmissionRejectedError('shutdown', 'slack', 'T1'))).toBe(
      'unavailable',
    );
    expect(classifyRefusal(new PreludeError('mark failed'))).toBe('unavailable');
  });

  it('classifies by code, so a copy of the error class from another package copy counts', () => {
    expect(classifyRefusal({ code: 'RT_ADMISSION_REJECTED', reason: 'capacity' })).toBe('busy');
    expect(classifyRefusal({ code: 'RT_PRELUDE' })).toBe('unavailable');
  });

  it('calls anything else unexpected', () => {
    expect(classifyRefusal(new Error('bug'))).toBe('unexpected');
    expect(classifyRefusal(new InvalidEventError('bad event'))).toBe('unexpected');
    expect(classifyRefusal({ code: 'RT_ADMISSION_REJECTED', reason: 'other' })).toBe('unexpected');
    expect(classifyRefusal(undefined)).toBe('unexpected');
  });
});
