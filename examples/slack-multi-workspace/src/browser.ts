/**
 * A few lines of browser for the offline walk-through: GET with redirects followed and cookies
 * kept per host (what a real browser does with the install flow's state cookie).
 */
export class TinyBrowser {
  readonly #cookies = new Map<string, Map<string, string>>();

  async get(url: string): Promise<{ status: number; body: string; url: string }> {
    let target = new URL(url);
    for (let hop = 0; hop < 10; hop += 1) {
      const jar = this.#cookies.get(target.hostname) ?? new Map<string, string>();
      const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const response = await fetch(target, {
        redirect: 'manual',
        headers: cookie ? { cookie } : {},
      });
      for (const line of response.headers.getSetCookie()) {
        const pair = line.split(';')[0] ?? '';
        const name = pair.slice(0, pair.indexOf('='));
        if (/expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
        else jar.set(name, pair.slice(pair.indexOf('=') + 1));
      }
      this.#cookies.set(target.hostname, jar);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.arrayBuffer();
        target = new URL(location, target);
        continue;
      }
      return { status: response.status, body: await response.text(), url: target.href };
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

/** The `href` of the link with `id` in a page. */
export function linkIn(page: string, id: string): string {
  const match = new RegExp(`id="${id}" href="([^"]*)"`).exec(page);
  if (match === null) throw new Error(`no link #${id}`);
  return (match[1] as string).replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
}
