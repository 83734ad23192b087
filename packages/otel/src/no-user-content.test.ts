import type { AttributeValue } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failureRun, outcomeRun, SECRETS } from './test-support/scripted-run.js';
import { createTelemetry, type Telemetry } from './test-support/telemetry.js';

let telemetry: Telemetry;
beforeEach(() => {
  telemetry = createTelemetry();
});
afterEach(async () => {
  await telemetry.shutdown();
});

/** Every string a backend would receive: names, attributes, events, statuses, metric points. */
async function everythingExported(t: Telemetry): Promise<string[]> {
  const out: string[] = [];
  const add = (attributes: Readonly<Record<string, AttributeValue | undefined>>) => {
    for (const [key, value] of Object.entries(attributes)) {
      out.push(key);
      if (value !== undefined) out.push(Array.isArray(value) ? value.join('|') : String(value));
    }
  };
  for (const span of t.spans()) {
    out.push(span.name, span.status.message ?? '');
    add(span.attributes);
    for (const event of span.events) {
      out.push(event.name);
      add(event.attributes ?? {});
    }
  }
  for (const point of await t.points()) {
    out.push(point.metric);
    add(point.attributes);
  }
  return out;
}

const leaks = (strings: string[]) =>
  strings.filter((s) => Object.values(SECRETS).some((secret) => s.includes(secret)));

describe('user content', () => {
  it('never appears in any span or metric attribute after both scripted runs', async () => {
    await outcomeRun(telemetry);
    await failureRun(telemetry);
    const exported = await everythingExported(telemetry);
    expect(exported.length).toBeGreaterThan(500);
    expect(leaks(exported)).toEqual([]);
  });

  it('reaches spans only when recordErrorMessages opts in (the scan above can fail)', async () => {
    await outcomeRun(telemetry, { recordErrorMessages: true });
    expect(leaks(await everythingExported(telemetry))).toContainEqual(
      expect.stringContaining(SECRETS.text),
    );
  });
});
