import { describe, expect, it } from 'vitest';
import { runOffline } from './offline.js';

describe('the offline walk-through', () => {
  it('installs two workspaces, answers each with its own token, and forgets the one that uninstalled', async () => {
    const lines: string[] = [];
    const result = await runOffline({ print: (line) => lines.push(line) });
    expect(result.repliedWith.T1).toBe(result.issued.T1);
    expect(result.repliedWith.T2).toBe(result.issued.T2);
    expect(result.issued.T1).not.toBe(result.issued.T2);
    expect(result.stillInstalled).toEqual(['T2']);
    expect(result.afterUninstall).toContain('unknown_installation');
    expect(lines[0]).toMatch(/^install T1: 200 The app is installed in Acme workspace/);
  });
});
