/** The routes of the fake Discord REST and how a request path is matched to one. */

/**
 * A route of the fake, as recorded in `FakeDiscordCall.route` and named in `fail`/`delay`/`hang`:
 * the HTTP method and the path template.
 */
export type FakeDiscordRoute =
  | 'POST /webhooks/:application/:token'
  | 'GET /webhooks/:application/:token/messages/:message'
  | 'PATCH /webhooks/:application/:token/messages/:message'
  | 'DELETE /webhooks/:application/:token/messages/:message'
  | 'POST /interactions/:interaction/:token/callback'
  | 'POST /channels/:channel/messages'
  | 'GET /channels/:channel/messages'
  | 'PATCH /channels/:channel/messages/:message'
  | 'POST /channels/:channel/typing'
  | 'POST /channels/:channel/threads'
  | 'POST /channels/:channel/messages/:message/threads'
  | 'PUT /channels/:channel/messages/:message/reactions/:emoji/@me'
  | 'DELETE /channels/:channel/messages/:message/reactions/:emoji/@me'
  | 'PUT /applications/:application/commands'
  | 'PUT /applications/:application/guilds/:guild/commands'
  | 'GET /gateway/bot';

const ROUTE_PATTERNS: readonly (readonly [FakeDiscordRoute, RegExp])[] = [
  ['POST /webhooks/:application/:token', /^\/webhooks\/([^/]+)\/([^/]+)$/],
  [
    'GET /webhooks/:application/:token/messages/:message',
    /^\/webhooks\/([^/]+)\/([^/]+)\/messages\/([^/]+)$/,
  ],
  [
    'PATCH /webhooks/:application/:token/messages/:message',
    /^\/webhooks\/([^/]+)\/([^/]+)\/messages\/([^/]+)$/,
  ],
  [
    'DELETE /webhooks/:application/:token/messages/:message',
    /^\/webhooks\/([^/]+)\/([^/]+)\/messages\/([^/]+)$/,
  ],
  [
    'POST /interactions/:interaction/:token/callback',
    /^\/interactions\/([^/]+)\/([^/]+)\/callback$/,
  ],
  ['POST /channels/:channel/messages', /^\/channels\/([^/]+)\/messages$/],
  ['GET /channels/:channel/messages', /^\/channels\/([^/]+)\/messages$/],
  ['PATCH /channels/:channel/messages/:message', /^\/channels\/([^/]+)\/messages\/([^/]+)$/],
  ['POST /channels/:channel/typing', /^\/channels\/([^/]+)\/typing$/],
  ['POST /channels/:channel/threads', /^\/channels\/([^/]+)\/threads$/],
  [
    'POST /channels/:channel/messages/:message/threads',
    /^\/channels\/([^/]+)\/messages\/([^/]+)\/threads$/,
  ],
  [
    'PUT /channels/:channel/messages/:message/reactions/:emoji/@me',
    /^\/channels\/([^/]+)\/messages\/([^/]+)\/reactions\/([^/]+)\/@me$/,
  ],
  [
    'DELETE /channels/:channel/messages/:message/reactions/:emoji/@me',
    /^\/channels\/([^/]+)\/messages\/([^/]+)\/reactions\/([^/]+)\/@me$/,
  ],
  ['PUT /applications/:application/commands', /^\/applications\/([^/]+)\/commands$/],
  [
    'PUT /applications/:application/guilds/:guild/commands',
    /^\/applications\/([^/]+)\/guilds\/([^/]+)\/commands$/,
  ],
  ['GET /gateway/bot', /^\/gateway\/bot$/],
];

const ROUTES = ROUTE_PATTERNS.map(([route, pattern]) => ({
  route,
  pattern,
  names: [...route.matchAll(/:(\w+)/g)].map((m) => m[1] as string),
}));

/** The route `method path` matches (path after `/api/v10`), with its decoded parameters. */
export function matchRoute(
  method: string,
  path: string,
): { route: FakeDiscordRoute | 'unknown'; params: Record<string, string> } {
  for (const { route, pattern, names } of ROUTES) {
    if (!route.startsWith(`${method} `)) continue;
    const found = pattern.exec(path);
    if (found === null) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      params[name] = decodeURIComponent(found[i + 1] as string);
    });
    return { route, params };
  }
  return { route: 'unknown', params: {} };
}
