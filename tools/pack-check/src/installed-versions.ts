/**
 * Which versions of a package an npm project installed, read from `npm ls NAME --all --json`
 * (`installedVersions` of `consumer.ts`): how the pack check shows that a bot gets one copy of a
 * library its dependencies share.
 */
/** A node of `npm ls --json`'s tree: its version and the dependencies installed under it. */
export interface NpmLsNode {
  readonly version?: string;
  readonly dependencies?: Readonly<Record<string, NpmLsNode>>;
}

/** The distinct versions of `name` anywhere in `tree`, sorted (empty when it is not installed). */
export function versionsIn(tree: NpmLsNode, name: string): string[] {
  const found = new Set<string>();
  const visit = (node: NpmLsNode): void => {
    for (const [dependency, child] of Object.entries(node.dependencies ?? {})) {
      if (dependency === name && child.version !== undefined) found.add(child.version);
      visit(child);
    }
  };
  visit(tree);
  return [...found].sort();
}
