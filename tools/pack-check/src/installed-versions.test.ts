import { describe, expect, it } from 'vitest';
import { versionsIn } from './installed-versions.js';

describe('versionsIn', () => {
  it('collects every distinct version of a package, however deep, sorted', () => {
    const tree = {
      dependencies: {
        '@rt/adapter-slack': {
          version: '0.1.0',
          dependencies: {
            '@slack/web-api': { version: '7.19.0' },
            '@slack/socket-mode': {
              version: '3.1.0',
              dependencies: { '@slack/web-api': { version: '8.2.0' } },
            },
          },
        },
        '@slack/web-api': { version: '8.2.0' },
      },
    };
    expect(versionsIn(tree, '@slack/web-api')).toEqual(['7.19.0', '8.2.0']);
    expect(versionsIn(tree, '@slack/socket-mode')).toEqual(['3.1.0']);
  });

  it('finds nothing in a project without the package', () => {
    expect(versionsIn({}, '@slack/web-api')).toEqual([]);
    expect(versionsIn({ dependencies: { a: { version: '1.0.0' } } }, '@slack/web-api')).toEqual([]);
  });
});
