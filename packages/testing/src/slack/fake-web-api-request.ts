/** How the fake Slack Web API reads a call: its arguments, its token, and what Slack would refuse in it. */
import type { IncomingMessage } from 'node:http';
import type { FakeOAuthServer } from './fake-oauth.js';
import { validateSlackMessage, validateSlackView } from './validate-blocks.js';

/** Decodes a call's body: JSON as is, form fields with JSON-looking values parsed. */
export function parseArgs(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (raw.length === 0) return {};
  if (contentType?.startsWith('application/json')) {
    try {
      const parsed = JSON.parse(raw) as unknown;
      return typeof parsed === 'object' && parsed !== null
        ? (parsed as Record<string, unknown>)
        : {};
    } catch {
      return { _raw: raw };
    }
  }
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const looksJson = value.startsWith('{') || value.startsWith('[');
    if (looksJson) {
      try {
        args[key] = JSON.parse(value);
        continue;
      } catch {
        // keep the string
      }
    }
    args[key] = value;
  }
  return args;
}

const MESSAGE_METHODS = new Set([
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  'response_url',
]);

/** What Slack would refuse in `args` of `method` (blocks and views only). */
export function validationErrors(method: string, args: Record<string, unknown>): string[] {
  if (MESSAGE_METHODS.has(method)) return validateSlackMessage(args);
  if (method === 'views.open' || method === 'views.push' || method === 'views.update') {
    return validateSlackView(args.view);
  }
  return [];
}

/**
 * Why Slack would refuse `token` before reading the call (`not_authed`, `invalid_auth`, or the
 * issued token's own error such as `token_revoked`), or `undefined` when it is accepted.
 */
export function authError(
  token: string | undefined,
  issued: ReturnType<FakeOAuthServer['check']>,
  options: { readonly tokens?: readonly string[] | undefined },
  oauth: FakeOAuthServer | undefined,
): string | undefined {
  if (issued !== undefined) return 'error' in issued ? String(issued.error) : undefined;
  if (token === undefined || token.length === 0) return 'not_authed';
  if (oauth !== undefined)
    return (options.tokens ?? []).includes(token) ? undefined : 'invalid_auth';
  if (options.tokens !== undefined && !options.tokens.includes(token)) return 'invalid_auth';
  return undefined;
}

/** The call's token: the bearer header, else its `token` argument. */
export function tokenOf(req: IncomingMessage, args: Record<string, unknown>): string | undefined {
  const header = req.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice(7);
  return typeof args.token === 'string' ? args.token : undefined;
}

/** The client id and secret of a Basic authorization header (`oauth.v2.access`). */
export function basicOf(req: IncomingMessage): { id?: string; secret?: string } {
  const header = req.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Basic ')) return {};
  const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
  return { ...(id ? { id } : {}), ...(secret ? { secret } : {}) };
}
