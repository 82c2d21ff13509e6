import { CreateKeyBody, ROLES } from '@svc/contract';
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { randomToken } from '../../ids.ts';
import type { Logger } from '../../logger.ts';
import { passwordHashesInFlight, signInRefusals } from '../../observability/metrics.ts';
import { recordChange } from '../../platform/ledger/changes.ts';
import { listAuditEvents } from '../../rails/audit-trail/service.ts';
import { listTenantFrameworks } from '../../rails/compliance/service.ts';
import * as operator from '../../rails/operator/service.ts';
import { listDeliveries, listSubscriptions } from '../../webhooks/service.ts';
import { ago, createSurface, hashPassword, listen, newSessionToken, sha256, verifyPassword, when } from '../kit.ts';
import { createSignInStore, HashGate, SignInGuard } from '../sign-in-guard.ts';
import { registerAssessmentPages } from './assessments.ts';
import { webPerson } from './person.ts';
import { canManage, normaliseEmail, roleRank } from './users.ts';

/**
 * The tenant web application ({app_url}): people of a tenant sign in with email and password (set
 * through a one-time link an operator issues from the console), in a server-side session. Pages:
 * an overview, and /settings/api-keys where owners and admins create and revoke the tenant's API
 * keys through the same services (and audit events) as the operator API.
 */

interface SignedIn {
  tenantId: string;
  tenantName: string;
  tier: string;
  userId: string;
  email: string;
  role: string;
  sessionHash: string;
}

const PASSWORD_MIN = 12;
const PASSWORD_MAX = 200;

export interface WebApp {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startWebApp(opts: { db: Database; log: Logger; config: Config; host: string }): Promise<WebApp> {
  const { db, log, config } = opts;
  const prisma = db.prisma;
  const sessionMs = config.web.sessionHours * 3600_000;
  const s = await createSurface({
    name: 'web',
    title: 'Compliance service',
    prisma,
    log,
    http: config.http,
    secureCookies: config.web.publicUrl?.startsWith('https://') ?? false,
    trustProxy: config.trustProxy,
  });
  const { app, render, renderError } = s;
  const guard = new SignInGuard(createSignInStore(config.redisUrl), config.web.signIn);
  const gate = new HashGate(config.web.signIn.hashConcurrency);
  /** Runs one password hash in a slot of the gate; undefined when the gate is full (the caller answers 503). */
  const hashing = async <T>(fn: () => Promise<T>): Promise<{ value: T } | undefined> => {
    const place = gate.enter();
    if (!place) return undefined;
    try {
      await place.ready;
      passwordHashesInFlight.inc();
      try {
        return { value: await fn() };
      } finally {
        passwordHashesInFlight.dec();
      }
    } finally {
      place.release();
    }
  };
  let proxyHintLogged = false;
  /** The throttle's bookkeeping after the answer is known: a store that fails then is logged, not the person's problem. */
  const settle = (fn: () => Promise<void>) =>
    fn().catch((err: unknown) => log.warn('sign-in throttle not updated', { error: String(err) }));
  const who = (u: SignedIn) => ({ tenantId: u.tenantId, actor: u.userId, correlationId: newCorrelation() });
  const newCorrelation = () => `cor_web_${randomToken(9)}`;
  const wrap =
    (fn: (req: Request, res: Response) => Promise<void>) =>
    (req: Request, res: Response, next: NextFunction): void => {
      fn(req, res).catch(next);
    };

  // The session: cookie -> hash -> row (not expired) -> person (not disabled) -> tenant.
  const loadSession = async (req: Request, res: Response) => {
    const token = req.cookies[s.cookies.session] as string | undefined;
    if (!token) return;
    const hash = sha256(token);
    const session = await prisma.webSession.findUnique({ where: { idHash: hash } });
    if (!session || session.expiresAt <= new Date()) {
      if (session) await prisma.webSession.deleteMany({ where: { idHash: hash } });
      s.clearSessionCookie(res);
      return;
    }
    const user = await scopeToTenant(prisma, session.tenantId).webUser.findFirst({ where: { id: session.userId } });
    const tenant = await prisma.tenant.findUnique({ where: { id: session.tenantId } });
    if (!user || user.disabledAt || !tenant) {
      await prisma.webSession.deleteMany({ where: { idHash: hash } });
      s.clearSessionCookie(res);
      return;
    }
    if (Date.now() - session.lastSeenAt.getTime() > 60_000) {
      await prisma.webSession.updateMany({ where: { idHash: hash }, data: { lastSeenAt: new Date() } });
    }
    const me: SignedIn = {
      tenantId: tenant.id,
      tenantName: tenant.name,
      tier: tenant.tier,
      userId: user.id,
      email: user.email,
      role: user.role,
      sessionHash: hash,
    };
    res.locals.me = me;
  };
  app.use((req, res, next) => {
    loadSession(req, res).then(() => next(), next);
  });

  const me = (res: Response) => res.locals.me as SignedIn | undefined;
  const requireUser = (req: Request, res: Response, next: NextFunction) => {
    if (me(res)) return next();
    if (req.method === 'GET') return res.redirect(303, `/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
    return renderError(req, res, 401, 'Sign in first.');
  };
  const requireManager = (req: Request, res: Response, next: NextFunction) => {
    const u = me(res);
    if (u && canManage(u.role)) return next();
    return renderError(
      req,
      res,
      403,
      `Your role (${u?.role ?? 'none'}) may see the API keys but not change them. Ask an owner or an admin.`,
    );
  };
  const safeNext = (v: unknown) => (typeof v === 'string' && /^\/(?!\/)[\w\-/?=&%.]*$/.test(v) ? v : '/overview');

  async function openSession(res: Response, user: { id: string; tenantId: string; role: string }) {
    const token = newSessionToken();
    await prisma.webSession.create({
      data: {
        idHash: sha256(token),
        tenantId: user.tenantId,
        userId: user.id,
        role: user.role,
        expiresAt: new Date(Date.now() + sessionMs),
      },
    });
    await prisma.webUser.updateMany({ where: { id: user.id }, data: { lastSignInAt: new Date() } });
    await prisma.$transaction((tx) =>
      recordChange(tx, {
        tenantId: user.tenantId,
        actor: user.id,
        correlationId: newCorrelation(),
        action: 'web_session.signed_in',
        resourceType: 'svc.web.session',
        resourceId: user.id,
        data: { role: user.role },
      }),
    );
    s.setSessionCookie(res, token, sessionMs);
  }

  app.get('/', (_req, res) => res.redirect(303, me(res) ? '/overview' : '/sign-in'));

  app.get('/sign-in', (req, res) => {
    if (me(res)) return res.redirect(303, '/overview');
    render(req, res, 'sign-in', { pageTitle: 'Sign in', next: safeNext(req.query.next), email: '' });
  });

  app.post(
    '/sign-in',
    wrap(async (req, res) => {
      const email = normaliseEmail(String(req.body.email ?? '')).slice(0, 320);
      const password = String(req.body.password ?? '').slice(0, PASSWORD_MAX);
      const next = safeNext(req.body.next);
      const again = (status: number, error: string, retryAfterMs?: number) => {
        if (retryAfterMs !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
        render(req, res, 'sign-in', { pageTitle: 'Sign in', next, email, error }, status);
      };
      if (!proxyHintLogged && config.trustProxy === false && req.get('x-forwarded-for')) {
        // Every client then has the proxy's address and shares its limits.
        proxyHintLogged = true;
        log.warn('sign-in behind a proxy that is not trusted: set SVC_TRUST_PROXY', { peer: req.ip });
      }
      let admission: Awaited<ReturnType<SignInGuard['admit']>>;
      try {
        admission = await guard.admit(email, req.ip ?? 'unknown');
      } catch (err) {
        // Without its counters the sign-in is not guarded: refuse rather than let guesses through.
        log.warn('sign-in throttle unavailable', { error: String(err) });
        signInRefusals.inc({ reason: 'unavailable' });
        return again(503, 'Signing in is not possible for a moment. Try again shortly.', 5000);
      }
      if (!admission.ok) {
        signInRefusals.inc({ reason: admission.reason });
        const wait = ago(admission.retryAfterMs);
        return again(
          429,
          admission.reason === 'account'
            ? `Too many failed attempts for this account. Try again in ${wait}.`
            : `Too many failed sign-ins from your network. Try again in ${wait}.`,
          admission.retryAfterMs,
        );
      }
      const { attempt } = admission;
      const user = email ? await prisma.webUser.findUnique({ where: { email } }) : null;
      // An unknown address spends the same hash as a known one (verifyPassword's dummy), in the same gate.
      const checked = await hashing(() => verifyPassword(password, user?.passwordHash));
      if (!checked) {
        await settle(() => attempt.refund());
        signInRefusals.inc({ reason: 'busy' });
        return again(503, 'Too many sign-ins at this moment. Try again in a second.', 1000);
      }
      if (!user || !checked.value || user.disabledAt) {
        return again(401, 'The email address or the password is wrong.');
      }
      await settle(() => attempt.succeeded());
      await openSession(res, user);
      res.redirect(303, next);
    }),
  );

  async function findLink(token: unknown) {
    if (typeof token !== 'string' || token.length < 20 || token.length > 100) return undefined;
    const link = await prisma.webSignInLink.findUnique({ where: { tokenHash: sha256(token) } });
    if (!link || link.usedAt || link.revokedAt || link.expiresAt <= new Date()) return undefined;
    const user = await scopeToTenant(prisma, link.tenantId).webUser.findFirst({ where: { id: link.userId } });
    if (!user || user.disabledAt) return undefined;
    return { link, user };
  }

  // The one-time link is not used up by opening it (mail scanners follow links): setting the password does.
  app.get(
    '/sign-in/link',
    wrap(async (req, res) => {
      const found = await findLink(req.query.token);
      if (!found) return renderError(req, res, 404, 'This sign-in link is unknown, used or expired. Ask your operator for a new one.');
      render(req, res, 'set-password', { pageTitle: 'Set your password', token: req.query.token, email: found.user.email });
    }),
  );

  app.post(
    '/sign-in/link',
    wrap(async (req, res) => {
      const token = req.body.token;
      const found = await findLink(token);
      if (!found) return renderError(req, res, 404, 'This sign-in link is unknown, used or expired. Ask your operator for a new one.');
      const password = String(req.body.password ?? '');
      const confirm = String(req.body.confirm ?? '');
      const problem =
        password.length < PASSWORD_MIN
          ? `The password needs at least ${PASSWORD_MIN} characters.`
          : password.length > PASSWORD_MAX
            ? `The password may have at most ${PASSWORD_MAX} characters.`
            : password !== confirm
              ? 'The two passwords differ.'
              : undefined;
      if (problem)
        return render(req, res, 'set-password', { pageTitle: 'Set your password', token, email: found.user.email, error: problem }, 422);
      const hashed = await hashing(() => hashPassword(password));
      if (!hashed) {
        res.setHeader('Retry-After', '1');
        return render(
          req,
          res,
          'set-password',
          {
            pageTitle: 'Set your password',
            token,
            email: found.user.email,
            error: 'Too many sign-ins at this moment. Try again in a second.',
          },
          503,
        );
      }
      const passwordHash = hashed.value;
      const used = await prisma.$transaction(async (tx) => {
        const claimed = await tx.webSignInLink.updateMany({
          where: { tokenHash: found.link.tokenHash, usedAt: null, revokedAt: null },
          data: { usedAt: new Date() },
        });
        if (claimed.count !== 1) return false;
        await scopeToTenant(tx, found.user.tenantId).webUser.updateMany({ where: { id: found.user.id }, data: { passwordHash } });
        // A new password ends the person's other sessions.
        await scopeToTenant(tx, found.user.tenantId).webSession.deleteMany({ where: { userId: found.user.id } });
        await recordChange(tx, {
          tenantId: found.user.tenantId,
          actor: found.user.id,
          correlationId: newCorrelation(),
          action: 'web_user.password_set',
          resourceType: 'svc.web.user',
          resourceId: found.user.id,
        });
        return true;
      });
      if (!used) return renderError(req, res, 404, 'This sign-in link was used meanwhile. Ask your operator for a new one.');
      await settle(() => guard.vouch(found.user.email, req.ip ?? 'unknown'));
      await openSession(res, found.user);
      res.redirect(303, '/overview');
    }),
  );

  app.post(
    '/sign-out',
    wrap(async (_req, res) => {
      const u = me(res);
      if (u) {
        await prisma.webSession.deleteMany({ where: { idHash: u.sessionHash } });
        await prisma.$transaction((tx) =>
          recordChange(tx, {
            tenantId: u.tenantId,
            actor: u.userId,
            correlationId: newCorrelation(),
            action: 'web_session.signed_out',
            resourceType: 'svc.web.session',
            resourceId: u.userId,
          }),
        );
      }
      s.clearSessionCookie(res);
      res.redirect(303, '/sign-in?signed_out=1');
    }),
  );

  app.get(
    '/overview',
    requireUser,
    wrap(async (req, res) => {
      const u = me(res) as SignedIn;
      const tdb = scopeToTenant(prisma, u.tenantId);
      const [frameworks, auditOpen, selfAuditOpen, events, subscriptions, deliveries] = await Promise.all([
        listTenantFrameworks(db, u.tenantId, { limit: 50, activated: 'true' }),
        tdb.auditFinding.count({ where: { status: 'open' } }),
        tdb.selfAuditFinding.count({ where: { closedAt: null } }),
        listAuditEvents(prisma, u.tenantId, { limit: 10 }),
        listSubscriptions(prisma, u.tenantId, { limit: 20 }),
        listDeliveries(prisma, u.tenantId, { limit: 200 } as Parameters<typeof listDeliveries>[2]),
      ]);
      const bySubscription = new Map<string, Record<string, number>>();
      for (const d of deliveries.data) {
        const counts = bySubscription.get(d.subscriptionId) ?? {};
        counts[d.status] = (counts[d.status] ?? 0) + 1;
        bySubscription.set(d.subscriptionId, counts);
      }
      const lastBySubscription = new Map<string, (typeof deliveries.data)[number]>();
      for (const d of deliveries.data) if (!lastBySubscription.has(d.subscriptionId)) lastBySubscription.set(d.subscriptionId, d);
      render(req, res, 'overview', {
        pageTitle: 'Overview',
        frameworks: frameworks.data,
        findings: { audit: auditOpen, selfAudit: selfAuditOpen },
        events: events.data,
        subscriptions: subscriptions.data.map((sub) => ({
          ...sub,
          counts: bySubscription.get(sub.id) ?? {},
          last: lastBySubscription.get(sub.id),
        })),
        when,
      });
    }),
  );

  app.get(
    '/settings/api-keys',
    requireUser,
    wrap(async (req, res) => {
      const u = me(res) as SignedIn;
      const cursor = typeof req.query.cursor === 'string' && req.query.cursor.length < 200 ? req.query.cursor : undefined;
      let page: Awaited<ReturnType<typeof operator.listKeys>>;
      try {
        page = await operator.listKeys(prisma, { tenantId: u.tenantId, limit: 50, ...(cursor ? { cursor } : {}) });
      } catch {
        return renderError(req, res, 400, 'The page address is not valid.');
      }
      const now = Date.now();
      render(req, res, 'api-keys', {
        pageTitle: 'API keys',
        keys: page.data.map((k) => ({
          ...k,
          state: k.revokedAt ? 'revoked' : k.expiresAt && new Date(k.expiresAt).getTime() <= now ? 'expired' : 'active',
        })),
        cursor: page.cursor,
        manage: canManage(u.role),
        revoked: typeof req.query.revoked === 'string' ? req.query.revoked : undefined,
        when,
        ago,
      });
    }),
  );

  const grantable = (role: string) => ROLES.filter((r) => roleRank(r) >= roleRank(role));

  app.get(
    '/settings/api-keys/new',
    requireUser,
    requireManager,
    wrap(async (req, res) => {
      const u = me(res) as SignedIn;
      const person = await webPerson(prisma, u);
      render(req, res, 'api-key-new', { pageTitle: 'Create an API key', roles: grantable(u.role), person, values: { role: 'viewer' } });
    }),
  );

  app.post(
    '/settings/api-keys',
    requireUser,
    requireManager,
    wrap(async (req, res) => {
      const u = me(res) as SignedIn;
      const values = {
        name: String(req.body.name ?? '').trim(),
        role: String(req.body.role ?? ''),
        scopes: String(req.body.scopes ?? '').trim(),
        expiresAt: String(req.body.expiresAt ?? '').trim(),
        actsFor: String(req.body.actsFor ?? ''),
      };
      const person = await webPerson(prisma, u);
      const again = (error: string, status = 422) =>
        render(req, res, 'api-key-new', { pageTitle: 'Create an API key', roles: grantable(u.role), person, values, error }, status);
      if (!grantable(u.role).includes(values.role as (typeof ROLES)[number])) {
        return again(`Your role (${u.role}) may create keys of these roles: ${grantable(u.role).join(', ')}.`);
      }
      let expiresAt: string | undefined;
      if (values.expiresAt) {
        const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(values.expiresAt) ? `${values.expiresAt}T00:00:00.000Z` : values.expiresAt);
        if (Number.isNaN(d.getTime())) return again('The expiry date is not a date.');
        if (d.getTime() <= Date.now()) return again('The expiry date must be in the future.');
        expiresAt = d.toISOString();
      }
      // A key made here acts for its maker's own person or for no one, never for someone else.
      if (values.actsFor !== '' && values.actsFor !== 'me') return again('Choose whom the key acts for: you, or no one.');
      if (values.actsFor === 'me' && !person) {
        return again(`No active person with your email address (${u.email}) is in the stakeholders rail: the key cannot act for you.`);
      }
      const parsed = CreateKeyBody.safeParse({
        tenantId: u.tenantId,
        role: values.role,
        ...(values.name ? { name: values.name } : {}),
        ...(values.scopes
          ? {
              scopes: values.scopes
                .split(/[\s,]+/)
                .map((x) => x.trim())
                .filter(Boolean),
            }
          : {}),
        ...(expiresAt ? { expiresAt } : {}),
        ...(values.actsFor === 'me' && person ? { personId: person.id } : {}),
      });
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'form'}: ${i.message}`).join('; ');
        return again(`The key was not created: ${issues}`);
      }
      const created = await operator.createKey(prisma, who(u), parsed.data);
      render(req, res, 'api-key-created', { pageTitle: 'API key created', key: created, when }, 201);
    }),
  );

  type ApiKeyRecord = ReturnType<typeof operator.renderKey>;

  /**
   * The handler of a page of one API key of the signed-in user's tenant (the key the path names),
   * as a manager: a 404 page when the tenant has no such key.
   */
  const keyPage = (handle: (req: Request, res: Response, u: SignedIn, key: ApiKeyRecord) => Promise<void> | void) =>
    wrap(async (req, res) => {
      const u = me(res) as SignedIn;
      const id = String(req.params.id);
      const row = /^key_[0-9A-Za-z]{1,60}$/.test(id) ? await scopeToTenant(prisma, u.tenantId).apiKey.findFirst({ where: { id } }) : null;
      if (!row) return renderError(req, res, 404, 'This tenant has no such API key.');
      await handle(req, res, u, operator.renderKey(row));
    });

  app.get(
    '/settings/api-keys/:id/revoke',
    requireUser,
    requireManager,
    keyPage((req, res, _u, key) => render(req, res, 'api-key-revoke', { pageTitle: `Revoke ${key.name}`, key, when })),
  );

  app.post(
    '/settings/api-keys/:id/revoke',
    requireUser,
    requireManager,
    keyPage(async (req, res, u, key) => {
      if (req.body.confirm !== 'yes') return renderError(req, res, 400, 'Confirm the revocation on the confirmation page.');
      await operator.revokeKey(prisma, who(u), key.id);
      res.redirect(303, `/settings/api-keys?revoked=${encodeURIComponent(key.id)}`);
    }),
  );

  registerAssessmentPages({ app, db, render, renderError, requireUser, me, newCorrelation });

  s.finish();
  // Expired sessions and links are removed hourly; they are already refused once expired.
  const listening = await listen(app, config.http, config.web.port ?? (config.port === 0 ? 0 : 8082), opts.host, () => {
    const now = new Date();
    Promise.all([
      prisma.webSession.deleteMany({ where: { expiresAt: { lt: now } } }),
      prisma.webSignInLink.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - 30 * 86_400_000) } } }),
    ]).catch((err: unknown) => log.warn('web session sweep failed', { error: String(err) }));
  }).catch(async (err: unknown) => {
    await guard.close();
    throw err;
  });
  return {
    ...listening,
    close: async () => {
      await listening.close();
      await guard.close();
    },
  };
}
