import { describe, expect, it } from 'vitest';
import { adapterNotice } from './notices.js';

type DemoNotice = 'busy_signal_failed' | 'request_failed';

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
