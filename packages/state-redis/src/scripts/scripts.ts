/**
 * The State's Lua scripts. Their `.lua` files sit beside this module in `src/` and are copied next
 * to it in `dist/` by the build.
 */
import { LuaScript } from './lua-script.js';

/** `acquire.lua`: take the lock and issue its fence. */
export const acquireScript = new LuaScript(new URL('./acquire.lua', import.meta.url));
/** `renew.lua`: token-checked extension. */
export const renewScript = new LuaScript(new URL('./renew.lua', import.meta.url));
/** `release.lua`: token-checked release with an optional announcement. */
export const releaseScript = new LuaScript(new URL('./release.lua', import.meta.url));
/** `mark-events.lua`: mark several keys of one delivery, all or nothing. */
export const markEventsScript = new LuaScript(new URL('./mark-events.lua', import.meta.url));
/** `touch-subscription.lua`: check a thread subscription and extend it by its own TTL. */
export const touchSubscriptionScript = new LuaScript(
  new URL('./touch-subscription.lua', import.meta.url),
);
/** `write-thread-state.lua`: a fenced, optionally version-checked thread state write. */
export const writeThreadStateScript = new LuaScript(
  new URL('./write-thread-state.lua', import.meta.url),
);
/** `forget-marks.lua`: delete a lost write's marks that still hold its token. */
export const forgetMarksScript = new LuaScript(new URL('./forget-marks.lua', import.meta.url));
