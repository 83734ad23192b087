/**
 * A type-only compatibility shim, shipped in the declarations: discord.js 14 depends on
 * `@sapphire/shapeshift` 4, whose declarations import `InspectOptionsStylized` from `util`.
 * `@types/node` 26 renamed that interface `InspectContext`, so a project on the current
 * `@types/node` with `skipLibCheck: false` fails to type-check discord.js's dependency (TS2305),
 * and shapeshift has had no release since. This declares the name again (shapeshift only uses it
 * as the parameter type of its `inspect` methods, which nobody calls with it). On `@types/node` before 26 it merges with the real
 * interface and changes nothing. Remove it once discord.js depends on a shapeshift that no longer
 * imports the old name.
 */
declare module 'util' {
  /** Empty here: the augmentation cannot name `InspectOptions`, and shapeshift needs only the name. */
  interface InspectOptionsStylized {}
}

export {};
