import { SlackCallError } from '../errors.js';

/** One direct JSON POST to Slack. */
export interface DirectCall {
  readonly url: string;
  readonly body: Readonly<Record<string, unknown>>;
  /** Bot token for Web API methods; `response_url`s need none. */
  readonly token?: string;
  /** Aborts the request; the call then rejects with a `SlackCallError` caused by the reason. */
  readonly signal?: AbortSignal;
  /** Web API methods answer `{ ok }`: require `ok: true`. `response_url`s only need a 2xx. */
  readonly expectOk: boolean;
}

/**
 * POSTs `body` as JSON with `fetch` and resolves Slack's parsed answer (or `undefined` for a
 * non-JSON 2xx). Rejects with `SlackCallError` on a non-2xx status, `ok: false`, a network error
 * or an abort; the request is really cancelled on abort, not left running.
 */
export async function postJson(fetchImpl: typeof fetch, call: DirectCall): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (call.token !== undefined) headers.authorization = `Bearer ${call.token}`;
  let response: Response;
  try {
    response = await fetchImpl(call.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(call.body),
      ...(call.signal ? { signal: call.signal } : {}),
    });
  } catch (error) {
    throw new SlackCallError(`POST ${redact(call.url)} failed: ${describe(error)}`, {
      cause: call.signal?.aborted ? call.signal.reason : error,
    });
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    throw new SlackCallError(`POST ${redact(call.url)} answered ${response.status}`, {
      status: response.status,
    });
  }
  let parsed: unknown;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (call.expectOk && (parsed as { ok?: unknown } | undefined)?.ok !== true) {
    const slackError = (parsed as { error?: unknown } | undefined)?.error;
    throw new SlackCallError(`POST ${redact(call.url)} answered ok: false`, {
      status: response.status,
      slackError: typeof slackError === 'string' ? slackError : 'invalid_response',
    });
  }
  return parsed;
}

/** Drops the query and the secret-bearing path tail of a URL for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname.startsWith('/api/')
      ? `${parsed.origin}${parsed.pathname}`
      : `${parsed.origin}/…`;
  } catch {
    return '<invalid url>';
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
