import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  FakeIssuedToken,
  FakeSlackOAuth,
  FakeSlackOAuthOptions,
  FakeWorkspace,
} from './fake-oauth-types.js';

function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function installationOf(workspace: FakeWorkspace): string {
  return workspace.isEnterpriseInstall === true
    ? `E:${workspace.enterpriseId ?? ''}`
    : `T:${workspace.teamId}`;
}

interface PendingCode {
  readonly workspace: FakeWorkspace;
  readonly redirectUri: string;
  readonly scopes: string;
  readonly userScopes: string;
}

/** The fake OAuth behind `startFakeSlackApi({ oauth })`: consent page, codes, tokens. */
export class FakeOAuthServer implements FakeSlackOAuth {
  readonly #options: FakeSlackOAuthOptions;
  readonly #origin: string;
  readonly #codes = new Map<string, PendingCode>();
  readonly #refreshTokens = new Map<string, FakeWorkspace>();
  readonly #tokens = new Map<string, FakeIssuedToken & { workspace: FakeWorkspace }>();
  readonly issued: FakeIssuedToken[] = [];
  #refreshes = 0;

  constructor(options: FakeSlackOAuthOptions, origin: string) {
    this.#options = options;
    this.#origin = origin;
  }

  get authorizeUrl(): string {
    return `${this.#origin}/oauth/v2/authorize`;
  }

  get refreshCount(): number {
    return this.#refreshes;
  }

  #now(): number {
    return (this.#options.clock ?? Date.now)();
  }

  botTokenOf(installation: string): string | undefined {
    return this.issued
      .filter((t) => t.installation === installation && t.kind === 'bot' && !t.revoked)
      .at(-1)?.token;
  }

  revokeInstallation(installation: string): void {
    for (const token of this.issued) if (token.installation === installation) token.revoked = true;
  }

  /** Serves the browser side (`/oauth/v2/authorize`, `/oauth/v2/approve`); false for other paths. */
  serveBrowser(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', this.#origin);
    if (url.pathname === '/oauth/v2/authorize') {
      this.#consent(url, res);
      return true;
    }
    if (url.pathname === '/oauth/v2/approve') {
      this.#approve(url, res);
      return true;
    }
    return false;
  }

  #consent(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const ok = q.get('client_id') === this.#options.clientId && q.get('redirect_uri') !== null;
    if (!ok) {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><p id="consent-error">invalid client_id or redirect_uri</p>');
      return;
    }
    const links = this.#options.workspaces.map((w, i) => {
      const approve = new URL('/oauth/v2/approve', this.#origin);
      for (const name of ['redirect_uri', 'state', 'scope', 'user_scope']) {
        approve.searchParams.set(name, q.get(name) ?? '');
      }
      approve.searchParams.set('workspace', String(i));
      return `<li><a class="allow" id="allow-${html(w.teamId)}" href="${html(approve.href)}">Allow in ${html(w.teamName ?? w.teamId)}</a></li>`;
    });
    const cancel = new URL(q.get('redirect_uri') as string);
    cancel.searchParams.set('error', 'access_denied');
    cancel.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Fake Slack consent</title></head><body><h1>Install the app</h1><p>Scopes: <span id="scopes">${html(q.get('scope') ?? '')}</span></p><ul>${links.join('')}</ul><p><a id="cancel" href="${html(cancel.href)}">Cancel</a></p></body></html>`,
    );
  }

  #approve(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    const workspace = this.#options.workspaces[Number(q.get('workspace'))];
    const redirectUri = q.get('redirect_uri') ?? '';
    if (workspace === undefined || redirectUri === '') {
      res.writeHead(400);
      res.end();
      return;
    }
    const code = `fake-code-${randomBytes(12).toString('hex')}`;
    this.#codes.set(code, {
      workspace,
      redirectUri,
      scopes: q.get('scope') ?? '',
      userScopes: q.get('user_scope') ?? '',
    });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(302, { location: target.href });
    res.end();
  }

  #issue(workspace: FakeWorkspace, kind: 'bot' | 'user'): { token: string; expiresIn?: number } {
    const prefix = kind === 'bot' ? 'xoxb' : 'xoxp';
    const rotation = this.#options.tokenRotation;
    const token = `${rotation ? 'xoxe.' : ''}${prefix}-fake-${workspace.teamId}-${randomBytes(10).toString('hex')}`;
    const entry = {
      token,
      installation: installationOf(workspace),
      kind,
      expiresAtMs: rotation ? this.#now() + rotation.expiresInS * 1000 : undefined,
      revoked: false,
      workspace,
    };
    this.#tokens.set(token, entry);
    this.issued.push(entry);
    return rotation ? { token, expiresIn: rotation.expiresInS } : { token };
  }

  #refreshToken(workspace: FakeWorkspace): string {
    const token = `xoxe-1-fake-${randomBytes(12).toString('hex')}`;
    this.#refreshTokens.set(token, workspace);
    return token;
  }

  /** `oauth.v2.access`: a code exchange or a refresh grant. */
  access(
    args: Record<string, unknown>,
    basic: { id?: string; secret?: string },
  ): Record<string, unknown> {
    const clientId = (args.client_id as string | undefined) ?? basic.id;
    const clientSecret = (args.client_secret as string | undefined) ?? basic.secret;
    if (clientId !== this.#options.clientId) return { ok: false, error: 'invalid_client_id' };
    if (clientSecret !== this.#options.clientSecret)
      return { ok: false, error: 'bad_client_secret' };
    if (args.grant_type === 'refresh_token') return this.#refresh(String(args.refresh_token ?? ''));
    const pending = this.#codes.get(String(args.code ?? ''));
    if (pending === undefined) return { ok: false, error: 'invalid_code' };
    this.#codes.delete(String(args.code));
    if (args.redirect_uri !== undefined && args.redirect_uri !== pending.redirectUri) {
      return { ok: false, error: 'bad_redirect_uri' };
    }
    const w = pending.workspace;
    const org = w.isEnterpriseInstall === true;
    const bot = this.#issue(w, 'bot');
    const userId = w.userId ?? `U${w.teamId}`;
    const authedUser: Record<string, unknown> = { id: userId };
    if (pending.userScopes !== '') {
      const user = this.#issue(w, 'user');
      Object.assign(authedUser, {
        scope: pending.userScopes,
        access_token: user.token,
        token_type: 'user',
      });
      if (user.expiresIn !== undefined) {
        Object.assign(authedUser, {
          refresh_token: this.#refreshToken(w),
          expires_in: user.expiresIn,
        });
      }
    }
    return {
      ok: true,
      app_id: this.#options.appId ?? 'A0FAKEAPP',
      authed_user: authedUser,
      scope: pending.scopes,
      token_type: 'bot',
      access_token: bot.token,
      bot_user_id: w.botUserId ?? `UB${w.teamId}`,
      ...(bot.expiresIn !== undefined
        ? { refresh_token: this.#refreshToken(w), expires_in: bot.expiresIn }
        : {}),
      team: org ? null : { id: w.teamId, name: w.teamName ?? w.teamId },
      enterprise:
        w.enterpriseId === undefined
          ? null
          : { id: w.enterpriseId, name: w.enterpriseName ?? w.enterpriseId },
      is_enterprise_install: org,
    };
  }

  #refresh(refreshToken: string): Record<string, unknown> {
    const workspace = this.#refreshTokens.get(refreshToken);
    const rotation = this.#options.tokenRotation;
    if (workspace === undefined || rotation === undefined)
      return { ok: false, error: 'invalid_refresh_token' };
    this.#refreshTokens.delete(refreshToken);
    this.#refreshes += 1;
    const bot = this.#issue(workspace, 'bot');
    return {
      ok: true,
      app_id: this.#options.appId ?? 'A0FAKEAPP',
      scope: 'chat:write',
      token_type: 'bot',
      access_token: bot.token,
      refresh_token: this.#refreshToken(workspace),
      expires_in: rotation.expiresInS,
      bot_user_id: workspace.botUserId ?? `UB${workspace.teamId}`,
      team: { id: workspace.teamId, name: workspace.teamName ?? workspace.teamId },
      enterprise: workspace.enterpriseId === undefined ? null : { id: workspace.enterpriseId },
      is_enterprise_install: workspace.isEnterpriseInstall === true,
    };
  }

  /**
   * Checks a token it issued: `undefined` when it did not issue it (the fake's other rules
   * apply), else the error (`token_revoked`, `token_expired`) or `ok` with its workspace.
   */
  check(
    token: string,
  ): { error: string } | { workspace: FakeWorkspace; kind: 'bot' | 'user' } | undefined {
    const entry = this.#tokens.get(token);
    if (entry === undefined) return undefined;
    if (entry.revoked) return { error: 'token_revoked' };
    if (entry.expiresAtMs !== undefined && entry.expiresAtMs <= this.#now())
      return { error: 'token_expired' };
    return { workspace: entry.workspace, kind: entry.kind };
  }

  /** `auth.test` of an issued token. */
  authTest(workspace: FakeWorkspace, kind: 'bot' | 'user'): Record<string, unknown> {
    return {
      ok: true,
      url: `https://${workspace.teamId.toLowerCase()}.slack.com/`,
      team: workspace.teamName ?? workspace.teamId,
      team_id: workspace.teamId,
      enterprise_id: workspace.enterpriseId,
      user_id:
        kind === 'bot'
          ? (workspace.botUserId ?? `UB${workspace.teamId}`)
          : (workspace.userId ?? `U${workspace.teamId}`),
      ...(kind === 'bot' ? { bot_id: `B${workspace.teamId}` } : {}),
      is_enterprise_install: workspace.isEnterpriseInstall === true,
    };
  }
}
