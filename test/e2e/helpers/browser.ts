// A browser without JavaScript for the login flows of the e2e suites: it keeps cookies by host and path (Keycloak
// scopes its session cookies to /realms/<realm>/, and two realms on one server each have an AUTH_SESSION_ID),
// follows redirects itself, and reads the forms of a page (action, method, inputs) so a test can post them as a
// person would. A redirect to `stopAt` is not followed: it is where the authorization code arrives.

/** A form on a page: its absolute action URL and the values its inputs carry. */
export type Form = { id: string; action: string; fields: Record<string, string> };
/** Where a navigation ended: a page (status and HTML) or the redirect to `stopAt`. */
export type Landing = { url: string; status: number; html: string; stoppedAt?: string };

type Cookie = { name: string; value: string; host: string; path: string };

const entities: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
/** Decodes the HTML entities Keycloak's templates write into attributes. */
export const unescapeHtml = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(
          e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)),
        )
      : (entities[e.toLowerCase()] ?? all),
  );

const attr = (tag: string, name: string) =>
  unescapeHtml(new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`, 'i').exec(tag)?.[1] ?? '');

/** The forms of an HTML page, their inputs' names and values (a missing value is empty). */
export function formsOf(html: string, base: string): Form[] {
  return [...html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/gi)].map(([form]) => {
    const open = /<form\b[^>]*>/i.exec(form)?.[0] ?? '';
    const fields: Record<string, string> = {};
    for (const [input] of form.matchAll(/<input\b[^>]*>/gi)) {
      const name = attr(input, 'name');
      if (name && !/type\s*=\s*"(submit|button)"/i.test(input)) fields[name] = attr(input, 'value');
    }
    return { id: attr(open, 'id'), action: new URL(attr(open, 'action') || base, base).href, fields };
  });
}

export class Browser {
  private readonly jar: Cookie[] = [];
  private readonly stopAt: string;
  constructor(stopAt: string) {
    this.stopAt = stopAt;
  }

  private cookieHeader(url: URL) {
    return this.jar
      .filter((c) => c.host === url.host && url.pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private keep(url: URL, res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      const [name, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
      const path = attrs.find((a) => /^path=/i.test(a))?.slice(5) || '/';
      const expired = attrs.some((a) => /^max-age=0$/i.test(a) || /^expires=Thu, 01 Jan 1970/i.test(a));
      const at = this.jar.findIndex((c) => c.name === name && c.host === url.host && c.path === path);
      if (at >= 0) this.jar.splice(at, 1);
      if (!expired) this.jar.push({ name, value, host: url.host, path });
    }
  }

  /** Opens `url` (a GET, or a POST of `form`) and follows redirects until a page or `stopAt`. */
  async open(url: string, form?: Record<string, string>): Promise<Landing> {
    let target = new URL(url);
    let body: URLSearchParams | undefined = form ? new URLSearchParams(form) : undefined;
    for (let hops = 0; hops < 20; hops++) {
      const res = await fetch(target, {
        method: body ? 'POST' : 'GET',
        redirect: 'manual',
        headers: { cookie: this.cookieHeader(target) },
        body,
      });
      this.keep(target, res);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location)
        return { url: target.href, status: res.status, html: await res.text() };
      await res.arrayBuffer();
      const next = new URL(location, target);
      if (next.href.startsWith(this.stopAt))
        return { url: target.href, status: res.status, html: '', stoppedAt: next.href };
      target = next;
      body = undefined;
    }
    throw new Error(`more than 20 redirects from ${url}`);
  }

  /** Posts the form `id` of `page` with its own values and `values` filled in. */
  submit(page: Landing, id: string, values: Record<string, string>): Promise<Landing> {
    const form = formsOf(page.html, page.url).find((f) => f.id === id);
    if (!form)
      throw new Error(
        `no form #${id} on ${page.url} (status ${page.status}; forms: ${formsOf(page.html, page.url)
          .map((f) => f.id)
          .join(', ')}): ${page.html.replace(/\s+/g, ' ').slice(0, 600)}`,
      );
    return this.open(form.action, { ...form.fields, ...values });
  }
}
