/**
 * Test helper: an HTTP client that behaves like a browser for the install flow: follows
 * redirects (302/303 as GET) and keeps cookies per host (ports share cookies, as browsers do),
 * honouring `Max-Age`/`Expires` deletion. Every response it saw is kept (for secret scans).
 */
export interface SeenResponse {
  readonly url: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export class CookieClient {
  readonly #jar = new Map<string, Map<string, string>>();
  readonly seen: SeenResponse[] = [];

  /** The cookies kept for `host`. */
  cookies(host: string): ReadonlyMap<string, string> {
    return this.#jar.get(host) ?? new Map();
  }

  /** Sets a cookie by hand (to test a stolen or forged one). */
  setCookie(host: string, name: string, value: string): void {
    const jar = this.#jar.get(host) ?? new Map<string, string>();
    jar.set(name, value);
    this.#jar.set(host, jar);
  }

  #remember(url: URL, headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = (pair ?? '').indexOf('=');
      if (eq <= 0) continue;
      const name = (pair as string).slice(0, eq);
      const value = (pair as string).slice(eq + 1);
      const expired = attributes.some((a) => {
        const [key, v] = a.split('=');
        if (key?.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (key?.toLowerCase() === 'expires') return Date.parse(v ?? '') <= Date.now();
        return false;
      });
      const jar = this.#jar.get(url.hostname) ?? new Map<string, string>();
      if (expired) jar.delete(name);
      else jar.set(name, value);
      this.#jar.set(url.hostname, jar);
    }
  }

  /** GETs `url`, following up to `maxRedirects` redirects; resolves the final response. */
  async get(url: string, maxRedirects = 10): Promise<SeenResponse> {
    let target = new URL(url);
    for (let hop = 0; hop <= maxRedirects; hop += 1) {
      const jar = this.#jar.get(target.hostname);
      const cookie = jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
      const response = await fetch(target, {
        redirect: 'manual',
        headers: cookie ? { cookie } : {},
      });
      this.#remember(target, response.headers);
      const seen: SeenResponse = {
        url: target.href,
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: await response.text(),
      };
      this.seen.push(seen);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        target = new URL(location, target);
        continue;
      }
      return seen;
    }
    throw new Error(`more than ${maxRedirects} redirects from ${url}`);
  }
}

/** The `href` of the element with `id` in an HTML page (entities decoded). */
export function hrefOf(page: string, id: string): string {
  const match = new RegExp(`id="${id}" href="([^"]*)"`).exec(page);
  if (match === null) throw new Error(`no link #${id} in the page`);
  return (match[1] as string).replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
}
