import { describe, expect, it } from 'vitest';
import type { RuntimeHandle } from '../adapter/adapter.js';
import type { Observation } from '../observe/observation.js';
import { adapterNotice, type KitNoticeName, noticeEmitter } from './notices.js';

type DemoNotice = KitNoticeName | 'demo_only';

describe('adapterNotice', () => {
  it('builds an adapter_notice with the typed name, and detail and error only when given', () => {
    const error = new Error('x');
    const bare = adapterNotice<DemoNotice>('slack', 'request_failed');
    expect(bare).toMatchObject({
      type: 'adapter_notice',
      adapter: 'slack',
      name: 'request_failed',
    });
    expect(bare).not.toHaveProperty('detail');
    expect(bare).not.toHaveProperty('error');
    expect(
      adapterNotice<DemoNotice>('slack', 'busy_signal_failed', { via: 'x' }, error),
    ).toMatchObject({
      detail: { via: 'x' },
      error,
    });
  });
});

describe('noticeEmitter', () => {
  it('observes through the attached runtime, emits nothing before attach, and never throws', () => {
    const seen: Observation[] = [];
    let runtime: RuntimeHandle | undefined;
    const notice = noticeEmitter<DemoNotice>('demo', () => runtime);
    notice('demo_only');
    expect(seen).toEqual([]);
    runtime = { observe: (o: Observation) => seen.push(o) } as unknown as RuntimeHandle;
    notice('dispatch_error', { shape: 's' });
    expect(seen).toMatchObject([
      { adapter: 'demo', name: 'dispatch_error', detail: { shape: 's' } },
    ]);
    runtime = {
      observe: () => {
        throw new Error('observer broke');
      },
    } as unknown as RuntimeHandle;
    expect(() => notice('request_failed')).not.toThrow();
  });
});
