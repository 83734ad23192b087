import { failOnUnhandledRejections } from '@rt/testing/adapter';
import { startFakeSocketMode } from '@rt/testing/slack';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APP_TOKEN,
  type SocketHarness,
  startSocketHarness,
} from '../test-support/socket-harness.js';

describe('Socket Mode trouble with no observer registered', () => {
  failOnUnhandledRejections();
  let h: SocketHarness | undefined;
  const lines: string[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    lines.length = 0;
    await h?.close();
  });

  it('prints every failed connection attempt of runtime.start() to stderr, without the token', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
      lines.push(
        ...String(text)
          .split('\n')
          .filter((line) => line.startsWith('rt ')),
      );
      return true;
    });
    const fake = await startFakeSocketMode({ redeliverAfterMs: false });
    fake.failConnectionsOpen(2, { error: 'internal_error' });
    try {
      h = await startSocketHarness({ fake, runtime: { observers: [] } });
      const failures = lines.filter((line) => line.includes('socket_connect_failed'));
      expect(failures).toHaveLength(2);
      for (const [index, line] of failures.entries()) {
        expect(line).toMatch(/^rt warn: socket_connect_failed adapter=slack /);
        expect(line).toContain(`attempt=${index + 1}`);
        expect(line).toContain('internal_error');
      }
      expect(lines.join('\n')).not.toContain(APP_TOKEN);
    } finally {
      await h?.close();
      h = undefined;
      await fake.close();
    }
  });
});
