import { describe, expect, it } from 'vitest';
import { OTHER_TENANT } from './names.js';
import { hottestTenants, TenantLabels } from './tenant-labels.js';

describe('TenantLabels', () => {
  it('labels the first tenants it sees and every later one as other, for good', () => {
    const labels = new TenantLabels(2);
    expect(['a', 'b', 'c', 'a', 'd', 'b'].map((t) => labels.labelOf(t))).toEqual([
      'a',
      'b',
      OTHER_TENANT,
      'a',
      OTHER_TENANT,
      'b',
    ]);
  });

  it('never gives a tenant literally named other its own series', () => {
    expect(new TenantLabels(3).labelOf(OTHER_TENANT)).toBe(OTHER_TENANT);
  });

  it('labels nobody with a cardinality of zero', () => {
    expect(new TenantLabels(0).labelOf('a')).toBe(OTHER_TENANT);
  });
});

describe('hottestTenants', () => {
  it('returns the largest entries decoded, ties by key, and sums the rest', () => {
    const { top, rest } = hottestTenants(
      { 'slack:b': 2, 'slack:a': 2, 'discord:c%3Ad': 5, 'slack:e': 1 },
      3,
    );
    expect(top).toEqual([
      { adapter: 'discord', tenant: 'c:d', inFlight: 5 },
      { adapter: 'slack', tenant: 'a', inFlight: 2 },
      { adapter: 'slack', tenant: 'b', inFlight: 2 },
    ]);
    expect(rest).toBe(1);
  });
});
