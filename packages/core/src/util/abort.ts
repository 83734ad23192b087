/** Kept so core modules importing the old path keep compiling; the helpers live in the kit. */
export { abortable, anySignal, delay, forwardAbort } from '../adapter-kit/signals.js';
