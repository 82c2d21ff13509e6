import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import cookieParser from 'cookie-parser';
import { doubleCsrf } from 'csrf-csrf';
import { Eta } from 'eta';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Prisma } from '../db/client.ts';
import { createHardenedServer, type HttpHardening } from '../http/hardening.ts';
import type { Logger } from '../logger.ts';

/**
 * What the two browser surfaces (the tenant web application and the operator console) share:
 * server-rendered eta templates, one small CSS file and script served from the process, security
 * headers with a strict CSP (no inline script, no CDN), form parsing, server-side sessions in
 * httpOnly SameSite=Strict cookies, and a double-submit CSRF token bound to the session on every POST.
 */

/** packages/server/web-assets: templates (views/) and the static files (static/). */
export const ASSETS_DIR = join(import.meta.dirname, '../../web-assets');

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const newSessionToken = () => randomBytes(32).toString('base64url');

// Passwords: scrypt from node:crypto (N=2^15, r=8, p=1: 32 MiB and about 50 ms a try), a 16-byte salt.
const SCRYPT = { N: 32_768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

function scryptAsync(password: string, salt: Buffer, opts: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...opts, maxmem: SCRYPT.maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash`, base64url: the parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const DUMMY_SALT = randomBytes(16);

/** Constant-time check; with no stored hash it still spends one scrypt, so timing does not tell whether an account exists. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = stored?.split('$');
  if (parts?.length !== 6 || parts[0] !== 'scrypt') {
    await scryptAsync(password, DUMMY_SALT, SCRYPT);
    return false;
  }
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  const key = await scryptAsync(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** The key that signs CSRF tokens: one row, made by the first process, shared by all. */
export async function csrfKey(prisma: Prisma, name: string): Promise<string> {
  const existing = await prisma.webKey.findUnique({ where: { name } });
  if (existing) return existing.secret;
  await prisma.webKey.createMany({ data: [{ name, secret: randomBytes(32).toString('base64url') }], skipDuplicates: true });
  return (await prisma.webKey.findUniqueOrThrow({ where: { name } })).secret;
}

/** A small failure counter per key (an email, a client address): after `max` failures in the window, refuse until it passes. */
export function createThrottle(max: number, windowMs: number) {
  const fails = new Map<string, { count: number; until: number }>();
  return {
    blocked(key: string, now = Date.now()): boolean {
      const f = fails.get(key);
      if (!f) return false;
      if (f.until <= now) {
        fails.delete(key);
        return false;
      }
      return f.count >= max;
    },
    fail(key: string, now = Date.now()): void {
      const f = fails.get(key);
      if (!f || f.until <= now) fails.set(key, { count: 1, until: now + windowMs });
      else f.count += 1;
      if (fails.size > 10_000) fails.delete(fails.keys().next().value as string);
    },
    clear(key: string): void {
      fails.delete(key);
    },
  };
}

export interface SurfaceOptions {
  /** `web` or `console`: the cookies' prefix and the templates' folder. */
  name: 'web' | 'console';
  title: string;
  prisma: Prisma;
  log: Logger;
  http: HttpHardening;
  /** Cookies are Secure when the surface is served over https (its public URL says so). */
  secureCookies: boolean;
  /** Proxies whose X-Forwarded-For gives `req.ip` (config.trustProxy); otherwise the peer's address is the client's. */
  trustProxy?: false | number | string[];
}

export interface Surface {
  app: Express;
  eta: Eta;
  cookies: { session: string; pre: string; csrf: string };
  secureCookies: boolean;
  /** Renders `views/<name>/<view>.eta` inside the surface's layout, with the CSRF token and the common locals. */
  render(req: Request, res: Response, view: string, data?: Record<string, unknown>, status?: number): void;
  /** The 403/404/400 page. */
  renderError(req: Request, res: Response, status: number, message: string): void;
  setSessionCookie(res: Response, token: string, maxAgeMs: number): void;
  clearSessionCookie(res: Response): void;
}

/** Express app with the shared middleware; the caller adds its routes, then `finish()`. */
export async function createSurface(opts: SurfaceOptions): Promise<Surface & { finish(): void }> {
  const cookies = opts.secureCookies
    ? { session: `__Host-svc_${opts.name}_sid`, pre: `__Host-svc_${opts.name}_pre`, csrf: `__Host-svc_${opts.name}_csrf` }
    : { session: `svc_${opts.name}_sid`, pre: `svc_${opts.name}_pre`, csrf: `svc_${opts.name}_csrf` };
  const cookieBase = { httpOnly: true, sameSite: 'strict' as const, secure: opts.secureCookies, path: '/' };
  const secret = await csrfKey(opts.prisma, `${opts.name}.csrf`);
  const { doubleCsrfProtection, generateCsrfToken } = doubleCsrf({
    getSecret: () => secret,
    // Bound to the session, or before sign-in to a random pre-session cookie (no login CSRF either).
    getSessionIdentifier: (req) => String(req.cookies?.[cookies.session] ?? req.cookies?.[cookies.pre] ?? ''),
    cookieName: cookies.csrf,
    cookieOptions: cookieBase,
    getCsrfTokenFromRequest: (req) => (req.body as Record<string, unknown> | undefined)?._csrf as string | undefined,
  });
  const eta = new Eta({ views: join(ASSETS_DIR, 'views'), cache: true, autoEscape: true, defaultExtension: '.eta' });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // The sign-in limits count per client address: behind a proxy that is the proxy's unless it is trusted.
  app.set('trust proxy', opts.trustProxy ?? false);
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    if (opts.http.hsts && opts.secureCookies) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  });
  app.use('/assets', express.static(join(ASSETS_DIR, 'static'), { maxAge: '1h', index: false, fallthrough: false }));
  app.use((_req, res, next) => {
    // Pages carry tokens shown once and personal data: never stored by the browser or a proxy.
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(cookieParser());
  app.use(express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 100 }));
  app.use((req, res, next) => {
    if (!req.cookies[cookies.session] && !req.cookies[cookies.pre]) {
      const pre = newSessionToken();
      req.cookies[cookies.pre] = pre;
      res.cookie(cookies.pre, pre, cookieBase);
    }
    next();
  });
  app.use(doubleCsrfProtection);

  const render: Surface['render'] = (req, res, view, data = {}, status = 200) => {
    const csrf = generateCsrfToken(req, res);
    const html = eta.render(`${opts.name}/${view}`, { title: opts.title, csrf, path: req.path, ...res.locals, ...data });
    res.status(status).type('html').send(html);
  };
  const renderError: Surface['renderError'] = (req, res, status, message) => {
    const heading =
      status === 403 ? 'Not allowed' : status === 404 ? 'Not found' : status === 429 ? 'Too many attempts' : 'Something is wrong';
    render(req, res, 'error', { heading, message, status, pageTitle: heading }, status);
  };

  const finish = () => {
    app.use((req: Request, res: Response) => renderError(req, res, 404, 'There is no page at this address.'));
    app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
      const e = err as { code?: string; status?: number; statusCode?: number; type?: string; message?: string };
      if (e.code === 'EBADCSRFTOKEN') {
        return renderError(req, res, 403, 'The form expired or was not sent from this page. Go back, reload the page and try again.');
      }
      const status = e.status ?? e.statusCode ?? 500;
      if (status >= 400 && status < 500) return renderError(req, res, status, e.message ?? 'The request could not be read.');
      opts.log.error(`${opts.name} page failed`, { path: req.path, error: String(err) });
      try {
        renderError(req, res, 500, 'The page failed. The error is logged; try again in a moment.');
      } catch {
        res.status(500).type('text').send('The page failed.');
      }
    });
  };

  return {
    app,
    eta,
    cookies,
    secureCookies: opts.secureCookies,
    render,
    renderError,
    setSessionCookie: (res, token, maxAgeMs) => {
      res.cookie(cookies.session, token, { ...cookieBase, maxAge: maxAgeMs });
      res.clearCookie(cookies.pre, cookieBase);
    },
    clearSessionCookie: (res) => {
      res.clearCookie(cookies.session, cookieBase);
      res.clearCookie(cookies.csrf, cookieBase);
    },
    finish,
  };
}

/**
 * Listens on `port` (0: a free one) and returns the URL and a close function; `sweep`, when given,
 * runs hourly until the close (the removal of expired sessions).
 */
export async function listen(app: Express, http: HttpHardening, port: number, host: string, sweep?: () => void) {
  const server: Server = await new Promise((resolve, reject) => {
    const s = createHardenedServer(app, http);
    s.once('error', reject);
    s.listen(port, host, () => resolve(s));
  });
  const timer = sweep ? setInterval(sweep, 3600_000) : undefined;
  timer?.unref();
  const actual = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${actual}`,
    port: actual,
    close: async () => {
      clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `Date` → `2026-11-24 14:05 UTC`; null → an em dash. */
export function when(d: Date | string | null | undefined): string {
  if (!d) return '—';
  const date = typeof d === 'string' ? new Date(d) : d;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A duration in words: `42 s`, `5 min`, `3 h`, `2 d`. */
export function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}
