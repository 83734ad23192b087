import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { installPlans, stepKey } from './install-plans.js';

const PLANS = fileURLToPath(new URL('../../fixture/installs/plans/', import.meta.url));

describe('installPlans', () => {
  it('runs identical plans once and folds a plan into the one it starts', () => {
    const plans = installPlans(PLANS).map((plan) => ({
      documents: plan.documents,
      steps: plan.steps.map((step) => `${step.file}:${step.line} ${step.text}`),
    }));
    expect(plans).toEqual([
      {
        documents: ['packages/state-memory/README.md', 'examples/bot/README.md'],
        steps: [
          'packages/state-memory/README.md:4 npm install @rt/core @rt/state-memory @rt/testing',
        ],
      },
      {
        documents: ['README.md', 'packages/core/README.md', 'docs/page.md'],
        steps: [
          'packages/core/README.md:4 npm install @rt/state-memory @rt/core',
          'packages/core/README.md:5 npm install --save-dev @rt/testing',
          'docs/page.md:6 npm install ioredis',
        ],
      },
    ]);
  });

  it('tells steps apart by tool and options, not by the order of the specs', () => {
    const step = (tool: 'npm' | 'pnpm', flags: string[], specs: string[]) =>
      stepKey({ file: 'a.md', line: 1, text: '', tool, flags, specs });
    expect(step('npm', [], ['b', 'a'])).toBe(step('npm', [], ['a', 'b']));
    expect(step('npm', ['-D'], ['a'])).not.toBe(step('npm', [], ['a']));
    expect(step('pnpm', [], ['a'])).not.toBe(step('npm', [], ['a']));
  });
});
