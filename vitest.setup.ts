/*
 * The setup file of every vitest run in the workspace (packages, tools, examples, models: see
 * vitest.shared.ts): a promise rejection that nobody handled during a test fails that test, so
 * no test file has to remember to install the check.
 *
 * The check is @rt/testing's public `failOnUnhandledRejections`, imported by path rather than by
 * package name: @rt/core's tests cannot depend on @rt/testing (turbo refuses the cycle), and the
 * helper itself imports nothing but vitest.
 */
import { failOnUnhandledRejections } from './packages/testing/src/support/unhandled-rejections.js';

failOnUnhandledRejections();
