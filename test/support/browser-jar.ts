/**
 * A client of the web application or the console that keeps cookies like a browser (one origin),
 * does not follow redirects and, given a client address, sends it as X-Forwarded-For (the servers
 * of the tests that set one trust loopback proxies: SVC_TRUST_PROXY=loopback).
 */
export class Jar {
  cookies = new Map<string, string>();
  /** The Set-Cookie headers of the last answer. */
  setCookies: string[] = [];
  constructor(
    readonly base: string,
    readonly ip?: string,
  ) {}

  async req(method: string, path: string, form?: Record<string, string>) {
    const headers: Record<string, string> = {};
    if (this.ip) headers['x-forwarded-for'] = this.ip;
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (form) {
      body = new URLSearchParams(form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(this.base + path, { method, headers, body, redirect: 'manual' });
    this.setCookies = res.headers.getSetCookie();
    for (const c of this.setCookies) {
      const [pair, ...attrs] = c.split(';');
      const [name, ...rest] = (pair as string).split('=');
      const value = rest.join('=');
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name as string);
      else this.cookies.set(name as string, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  get(path: string) {
    return this.req('GET', path);
  }

  /** The CSRF token of the form on `page` (this jar's pre-session or session). */
  async csrf(page = '/sign-in'): Promise<string> {
    return csrfOf((await this.get(page)).text);
  }

  /** GETs `page`, reads its CSRF token, POSTs the form with it. */
  async submit(page: string, action: string, form: Record<string, string>) {
    return this.req('POST', action, { _csrf: await this.csrf(page), ...form });
  }

  /** A password sign-in to the web application. */
  async signIn(email: string, password: string) {
    return this.req('POST', '/sign-in', { _csrf: await this.csrf(), email, password, next: '/overview' });
  }
}

export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no CSRF token in the page: ${html.slice(0, 300)}`);
  return m[1] as string;
}
