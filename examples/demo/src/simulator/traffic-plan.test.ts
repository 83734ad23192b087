import { describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_CONFIG } from '../config/demo-config.js';
import { planTraffic } from './traffic-plan.js';

describe('planTraffic', () => {
  it('plans every delivery once, in bursts of at most about twice the bound', () => {
    const plan = planTraffic(DEFAULT_DEMO_CONFIG);
    const { events, commands, clicks, maxDetached } = DEFAULT_DEMO_CONFIG;
    expect(plan.items).toHaveLength(events + commands + clicks);
    expect(new Set(plan.items.map((item) => item.id)).size).toBe(plan.items.length);
    const perBurst = new Map<number, number>();
    for (const item of plan.items) perBurst.set(item.burst, (perBurst.get(item.burst) ?? 0) + 1);
    for (const size of perBurst.values()) {
      expect(size).toBeGreaterThan(maxDetached);
      expect(size).toBeLessThanOrEqual(2 * maxDetached);
    }
    expect(planTraffic(DEFAULT_DEMO_CONFIG)).toEqual(plan);
  });
});
