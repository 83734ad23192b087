import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CodedError, ErrorCode, type Installation, InstallProvider } from '@slack/oauth';
import { InstallationStoreError, type InstallFailureReason, InstallFlowError } from '../errors.js';
import {
  type InstallAnswer,
  type InstallHandler,
  type InstallRequest,
  nodeInstallListener,
  webInstallHandler,
} from '../http/install-http.js';
import { silentLogger } from '../http/silent-logger.js';
import { emitInstallNotice } from '../notices.js';
import { toOAuthInstallationStore } from '../store/installation-store.js';
import { slackErrorOf } from '../tokens/oauth-exchange.js';
import {
  type ResolvedInstallerOptions,
  resolveInstallerOptions,
  type SlackInstallerOptions,
} from './installer-options.js';
import {
  defaultFailurePage,
  defaultInstallPage,
  defaultSuccessPage,
  failureStatusOf,
  type InstalledSummary,
} from './pages.js';
import { asIncomingMessage, ResponseRecorder } from './response-recorder.js';
import { SignedStateStore } from './signed-state-store.js';

const HTML = 'text/html; charset=utf-8';
const NO_STORE = 'no-store';

/** The typed failure behind whatever the library or a store threw (never its message: it may hold a request). */
export function installFailureOf(error: unknown): InstallFlowError {
  if (error instanceof InstallFlowError) return error;
  if (error instanceof InstallationStoreError) {
    return new InstallFlowError('store_failed', 'the installation could not be saved');
  }
  const code = (error as Partial<CodedError> | undefined)?.code;
  const reasons: Partial<Record<string, InstallFailureReason>> = {
    [ErrorCode.AuthorizationError]: 'access_denied',
    [ErrorCode.MissingCodeError]: 'code_missing',
    [ErrorCode.MissingStateError]: 'state_missing',
    [ErrorCode.InvalidStateError]: 'state_not_for_browser',
  };
  const reason = code === undefined ? undefined : reasons[code];
  if (reason !== undefined) return new InstallFlowError(reason, `install failed: ${reason}`);
  if (typeof code === 'string' && code.startsWith('slack_webapi_')) {
    const slackError = slackErrorOf(error);
    return new InstallFlowError(
      'exchange_failed',
      `Slack refused the installation${slackError ? `: ${slackError}` : ''}`,
      slackError,
    );
  }
  return new InstallFlowError('unexpected', 'the installation failed unexpectedly');
}

function summaryOf(installation: Installation): InstalledSummary {
  return {
    teamId: installation.team?.id,
    teamName: installation.team?.name,
    enterpriseId: installation.enterprise?.id,
    enterpriseName: installation.enterprise?.name,
    isEnterpriseInstall: installation.isEnterpriseInstall === true,
  };
}

/**
 * Slack's OAuth v2 install flow on `@slack/oauth`'s `InstallProvider`: the install path (a page
 * with the "Add to Slack" link, or a redirect to Slack with `directInstall`) sets the HttpOnly
 * state cookie; the redirect path checks the cookie against the `state`, verifies the `state`
 * (signed, expiring, single use: `SignedStateStore`), exchanges the `code` through
 * `oauth.v2.access`, runs `auth.test` and stores the installation (workspace or org-wide).
 * Every failure gets the failure page with a 4xx/5xx status, an `install_failed` notice and
 * nothing stored; the state cookie is cleared either way. Create it with `createSlackInstaller`;
 * serve `nodeListener` or `webHandler`, or call the handlers from any framework.
 */
export class SlackInstaller {
  readonly #options: ResolvedInstallerOptions;
  readonly #provider: InstallProvider;
  #node: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  #web: ((request: Request) => Promise<Response>) | undefined;

  constructor(options: SlackInstallerOptions) {
    const o = resolveInstallerOptions(options);
    this.#options = o;
    this.#provider = new InstallProvider({
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      stateStore: new SignedStateStore({
        secret: o.stateSecret,
        ttlMs: o.stateTtlMs,
        state: o.state,
        name: o.name,
        clock: o.clock,
      }),
      stateCookieName: o.cookieName,
      stateCookieExpirationSeconds: Math.ceil(o.stateTtlMs / 1000),
      installationStore: toOAuthInstallationStore(o.store),
      installUrlOptions: {
        scopes: [...o.scopes],
        userScopes: [...o.userScopes],
        redirectUri: o.redirectUri,
      },
      directInstall: o.directInstall,
      renderHtmlForInstallPath: o.pages.install ?? defaultInstallPage,
      authorizationUrl: o.authorizationUrl,
      clientOptions: { slackApiUrl: o.apiUrl, retryConfig: { retries: 0 }, timeout: 10_000 },
      logger: silentLogger(),
    });
  }

  /** The install path (`installPath`). */
  get installPath(): string {
    return this.#options.installPath;
  }

  /** The redirect path (the path of `redirectUri`). */
  get redirectPath(): string {
    return this.#options.redirectPath;
  }

  /**
   * Routes a request: the install path to `handleInstall`, the redirect path to
   * `handleRedirect`, anything else 404. Never rejects.
   */
  readonly handle: InstallHandler = async (request) => {
    const path = new URL(request.url, 'http://install.invalid').pathname;
    if (path === this.#options.installPath) return this.handleInstall(request);
    if (path === this.#options.redirectPath) return this.handleRedirect(request);
    return plain(404, 'Not Found');
  };

  /** `handle` as a `node:http` listener. */
  get nodeListener(): (req: IncomingMessage, res: ServerResponse) => void {
    this.#node ??= nodeInstallListener(this.handle);
    return this.#node;
  }

  /** `handle` as a web-standard handler. */
  get webHandler(): (request: Request) => Promise<Response> {
    this.#web ??= webInstallHandler(this.handle);
    return this.#web;
  }

  /** The install path: a fresh state cookie and the install page (or a 302 to Slack). */
  async handleInstall(request: InstallRequest): Promise<InstallAnswer> {
    if (!isRead(request.method)) return methodNotAllowed();
    const recorder = new ResponseRecorder();
    try {
      await this.#provider.handleInstallPath(
        asIncomingMessage(request),
        recorder.asServerResponse(),
      );
    } catch (error) {
      return this.#failed(installFailureOf(error), new ResponseRecorder());
    }
    recorder.setHeader('cache-control', NO_STORE);
    return recorder.answer();
  }

  /**
   * The redirect path: verify, exchange, store, then the success or the failure page. GET only:
   * a HEAD (a link prefetcher) would spend the single-use state and the code.
   */
  async handleRedirect(request: InstallRequest): Promise<InstallAnswer> {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    const recorder = new ResponseRecorder();
    let failure: InstallFlowError | undefined;
    try {
      await this.#provider.handleCallback(asIncomingMessage(request), recorder.asServerResponse(), {
        successAsync: async (installation) => {
          const installed = summaryOf(installation);
          emitInstallNotice(this.#options.observers, this.#options.name, 'install_completed', {
            teamId: installed.teamId,
            enterpriseId: installed.enterpriseId,
            isEnterpriseInstall: installed.isEnterpriseInstall,
          });
          const body = (this.#options.pages.success ?? defaultSuccessPage)(installed);
          recorder.writeHead(200, { 'content-type': HTML, 'cache-control': NO_STORE });
          recorder.end(body);
        },
        failureAsync: async (error) => {
          failure = installFailureOf(error);
        },
      });
    } catch (error) {
      failure = installFailureOf(error);
    }
    if (failure !== undefined || !recorder.ended) {
      return this.#failed(failure ?? installFailureOf(undefined), recorder);
    }
    return recorder.answer();
  }

  #failed(error: InstallFlowError, recorder: ResponseRecorder): InstallAnswer {
    emitInstallNotice(
      this.#options.observers,
      this.#options.name,
      'install_failed',
      { reason: error.reason, ...(error.slackError ? { slackError: error.slackError } : {}) },
      error,
    );
    let body: string;
    try {
      body = (this.#options.pages.failure ?? defaultFailurePage)(error);
    } catch {
      body = defaultFailurePage(error);
    }
    recorder.writeHead(failureStatusOf(error.reason), {
      'content-type': HTML,
      'cache-control': NO_STORE,
    });
    recorder.end(body);
    return recorder.answer();
  }
}

function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

function plain(status: number, text: string): InstallAnswer {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: text };
}

function methodNotAllowed(allow = 'GET, HEAD'): InstallAnswer {
  return {
    status: 405,
    headers: { 'content-type': 'text/plain; charset=utf-8', allow },
    body: 'Method Not Allowed',
  };
}

/** Creates the installer; validates at once (`TypeError`/`RangeError` naming the option). */
export function createSlackInstaller(options: SlackInstallerOptions): SlackInstaller {
  return new SlackInstaller(options);
}
