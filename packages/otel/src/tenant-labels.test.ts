import { describe, expect, it } from 'vitest';
import { OTHER_TENANT } from './names.js';
import { hottestTenants, TENANT_LABEL_AFTER, TenantLabels } from './tenant-labels.js';

describe('TenantLabels', () => {
  const repeat = (labels: TenantLabels, tenant: string, times: number) =>
    Array.from({ length: times }, () => labels.labelOf(tenant));

  it('labels a tenant once it was seen TENANT_LABEL_AFTER times, and keeps the label', () => {
    const labels = new TenantLabels(2);
    expect(repeat(labels, 'a', TENANT_LABEL_AFTER + 1)).toEqual([
      ...Array(TENANT_LABEL_AFTER - 1).fill(OTHER_TENANT),
      'a',
      'a',
    ]);
  });

  it('gives the labels to hot tenants, not to the first ones seen', () => {
    const labels = new TenantLabels(2);
    for (let i = 0; i < 1_000; i += 1) {
      labels.labelOf(`cold-${i}`);
      if (i % 10 === 0) labels.labelOf('hot-1');
      if (i % 20 === 0) labels.labelOf('hot-2');
    }
    expect(labels.labelOf('hot-1')).toBe('hot-1');
    expect(labels.labelOf('hot-2')).toBe('hot-2');
    expect(repeat(labels, 'late', 10)).toEqual(Array(10).fill(OTHER_TENANT));
  });

  it('never gives a tenant literally named other its own series', () => {
    expect(repeat(new TenantLabels(3), OTHER_TENANT, 5)).toEqual(Array(5).fill(OTHER_TENANT));
  });

  it('labels nobody with a cardinality of zero', () => {
    expect(repeat(new TenantLabels(0), 'a', 5)).toEqual(Array(5).fill(OTHER_TENANT));
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
