/**
 * Which documents the pack check's docs test checks: committed fixtures that exercise every
 * marker kind (and one of each failure), and, with `CHECK_REPOSITORY_DOCS`, the repository's own
 * documents (which follow the snippet convention); `pnpm --filter @rt/pack-check check-docs`
 * checks the real documents and prints every failing block.
 */
import { fileURLToPath } from 'node:url';
import { WORKSPACE_ROOT } from '../workspace.js';

/** Whether the docs test also checks the repository's own documents. */
export const CHECK_REPOSITORY_DOCS = true;

/** The fixture tree whose every block is correct. */
export const GOOD_DOCS = fileURLToPath(new URL('../../fixture/docs/good/', import.meta.url));
/** The fixture tree with one failure of each kind. */
export const BROKEN_DOCS = fileURLToPath(new URL('../../fixture/docs/broken/', import.meta.url));
/** The fixture tree whose install commands npm refuses or installs over a conflicting peer. */
export const INSTALL_RUN_FIXTURE = fileURLToPath(
  new URL('../../fixture/installs/eresolve/', import.meta.url),
);
/** The fixtures' fragment templates. */
export const FIXTURE_TEMPLATES = fileURLToPath(
  new URL('../../fixture/docs/snippets/', import.meta.url),
);

/** The repository's documents and the docs' fragment templates (`tools/pack-check/snippets/`). */
export const REPOSITORY_DOCS = WORKSPACE_ROOT;
export const REPOSITORY_TEMPLATES = fileURLToPath(new URL('../../snippets/', import.meta.url));

/**
 * What the docs consumer project installs beside the tarballs: the current `@types/node` (pinned
 * to the registry's latest by the caller), and the libraries the documents tell a reader to
 * install with rt, each at its latest (so a peer range that no longer admits the latest fails the
 * install): ioredis, OpenTelemetry's API, SDK and Prometheus exporter, the AI SDK (`ai` 7 and
 * `@ai-sdk/openai` 4, as the streaming guide's install line says: its mock is
 * `MockLanguageModelV4`), vitest (the test kit's examples) and `@slack/socket-mode` (the test
 * kit's fake Socket Mode example, whose install line names it), and `@types/redis-errors`, which
 * ioredis 6.1's declarations need under `skipLibCheck: false` (ioredis lists it only as a dev
 * dependency; the state-redis README tells a strict project to add it). A document that imports
 * another library needs it added here.
 */
export const DOCS_LIBRARIES = [
  'ioredis',
  '@types/redis-errors',
  'ai@7',
  '@ai-sdk/openai@4',
  '@opentelemetry/api',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/exporter-prometheus',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/sdk-trace',
  '@slack/socket-mode',
  'vitest',
] as const;

/**
 * Libraries whose own declarations fail the docs' strict library check in a Node project (the AI
 * SDK's name DOM types such as `HeadersInit` and break under `exactOptionalPropertyTypes`). Blocks
 * importing one (or a subpath) are type-checked apart with `skipLibCheck: true`; rt's own
 * declarations are still checked by every other block. `@rt/testing/ai` is here because its
 * declarations import the AI SDK's (the rest of `@rt/testing` is checked).
 */
export const LIB_CHECK_EXEMPT = ['ai', '@ai-sdk/openai', '@rt/testing/ai'] as const;
