import { describe, expect, it } from 'vitest';
import { importsLibCheckExempt } from './check-docs.js';

describe('importsLibCheckExempt', () => {
  it('is true for an import of an exempt library or one of its subpaths', () => {
    expect(importsLibCheckExempt("import { streamText } from 'ai';")).toBe(true);
    expect(importsLibCheckExempt('import { MockLanguageModelV4 } from "ai/test";')).toBe(true);
    expect(importsLibCheckExempt("import { openai } from '@ai-sdk/openai';")).toBe(true);
  });

  it('is false for other libraries, including names that only start like one', () => {
    expect(importsLibCheckExempt("import { createRuntime } from '@rt/core';")).toBe(false);
    expect(importsLibCheckExempt("import x from 'aither';")).toBe(false);
    expect(importsLibCheckExempt("import x from '@ai-sdk/anthropic';")).toBe(false);
  });
});
