import { CreateTenantBody, ENVIRONMENTS, ROLES, type Role, TIERS, type Tier } from '@svc/contract';
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import type { WebhookDelivery as DeliveryRow } from '../../generated/prisma/client.ts';
import { forgetCredential } from '../../http/auth-cache.ts';
import { randomToken } from '../../ids.ts';
import type { Logger } from '../../logger.ts';
import { hashToken, TOKEN_PATTERN } from '../../platform/credentials.ts';
import { recordChange } from '../../platform/ledger/changes.ts';
import * as operator from '../../rails/operator/service.ts';
import type { Dispatcher } from '../../webhooks/dispatcher.ts';
import { renderDelivery, replayDeadLetters } from '../../webhooks/service.ts';
import { ago, createSurface, createThrottle, listen, newSessionToken, sha256, when } from '../kit.ts';
import { inviteWebUser, listWebUsers } from '../web/users.ts';

/**
 * The operator console ({admin_url}), on its own port and loopback by default: sign in by pasting
 * an operator token (checked like the API checks it), then a server-side session. Tenants (list,
 * create, change tier, invite people to the web application), the dead-letter queue (filter, every
 * attempt, replay one or all since a time after a confirmation, audited by the same service as
 * `POST /v1/operator/webhooks/replay`) and the dispatcher's state.
 */

interface Operator {
  credentialId: string;
  name: string;
  sessionHash: string;
}

export interface ConsoleApp {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ConsoleOptions {
  db: Database;
  log: Logger;
  config: Config;
  /** The dispatcher of this process, when it runs one (its id is shown). */
  dispatcher: () => Dispatcher | undefined;
  /** The web application's public URL, for the sign-in links the console issues. */
  appUrl: () => string | undefined;
}

const DAY = 86_400_000;

export async function startConsole(opts: ConsoleOptions): Promise<ConsoleApp> {
  const { db, log, config } = opts;
  const prisma = db.prisma;
  const sessionMs = config.console.sessionHours * 3600_000;
  const s = await createSurface({
    name: 'console',
    title: 'Operator console',
    prisma,
    log,
    http: config.http,
    secureCookies: false,
    trustProxy: config.trustProxy,
  });
  const { app, render, renderError } = s;
  const throttle = createThrottle(10, 15 * 60_000);
  const wrap =
    (fn: (req: Request, res: Response) => Promise<void>) =>
    (req: Request, res: Response, next: NextFunction): void => {
      fn(req, res).catch(next);
    };
  const me = (res: Response) => res.locals.me as Operator | undefined;
  const actorOf = (o: Operator) => ({ actor: o.credentialId, correlationId: `cor_console_${randomToken(9)}` });

  const loadSession = async (req: Request, res: Response) => {
    const token = req.cookies[s.cookies.session] as string | undefined;
    if (!token) return;
    const hash = sha256(token);
    const session = await prisma.consoleSession.findUnique({ where: { idHash: hash } });
    const credential = session ? await prisma.operatorCredential.findUnique({ where: { id: session.credentialId } }) : null;
    // A revoked (or rotated) credential ends its sessions at once.
    if (!session || session.expiresAt <= new Date() || !credential || credential.revokedAt) {
      if (session) await prisma.consoleSession.deleteMany({ where: { idHash: hash } });
      s.clearSessionCookie(res);
      return;
    }
    res.locals.me = { credentialId: credential.id, name: credential.name, sessionHash: hash } satisfies Operator;
  };
  app.use((req, res, next) => {
    loadSession(req, res).then(() => next(), next);
  });
  const requireOperator = (req: Request, res: Response, next: NextFunction) => {
    if (me(res)) return next();
    if (req.method === 'GET') return res.redirect(303, `/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
    return renderError(req, res, 401, 'Sign in first.');
  };
  const safeNext = (v: unknown) => (typeof v === 'string' && /^\/(?!\/)[\w\-/?=&%.:]*$/.test(v) ? v : '/tenants');

  app.get('/', (_req, res) => res.redirect(303, me(res) ? '/tenants' : '/sign-in'));

  app.get('/sign-in', (req, res) => {
    if (me(res)) return res.redirect(303, '/tenants');
    render(req, res, 'sign-in', { pageTitle: 'Sign in', next: safeNext(req.query.next) });
  });

  app.post(
    '/sign-in',
    wrap(async (req, res) => {
      const token = String(req.body.token ?? '').trim();
      const next = safeNext(req.body.next);
      const key = req.ip ?? 'unknown';
      if (throttle.blocked(key))
        return render(req, res, 'sign-in', { pageTitle: 'Sign in', next, error: 'Too many failed attempts. Wait 15 minutes.' }, 429);
      const credential =
        TOKEN_PATTERN.test(token) && token.startsWith('svc_op_')
          ? await prisma.operatorCredential.findFirst({ where: { hash: hashToken(token), revokedAt: null } })
          : null;
      if (!credential) {
        throttle.fail(key);
        return render(req, res, 'sign-in', { pageTitle: 'Sign in', next, error: 'This is not a valid operator token.' }, 401);
      }
      throttle.clear(key);
      const session = newSessionToken();
      await prisma.consoleSession.create({
        data: { idHash: sha256(session), credentialId: credential.id, expiresAt: new Date(Date.now() + sessionMs) },
      });
      log.info('console sign-in', { credential: credential.id });
      s.setSessionCookie(res, session, sessionMs);
      res.redirect(303, next);
    }),
  );

  app.post(
    '/sign-out',
    wrap(async (_req, res) => {
      const o = me(res);
      if (o) await prisma.consoleSession.deleteMany({ where: { idHash: o.sessionHash } });
      s.clearSessionCookie(res);
      res.redirect(303, '/sign-in');
    }),
  );

  // --- tenants -------------------------------------------------------------------------------
  const cursorOf = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length < 300 ? v : undefined);

  app.get(
    '/tenants',
    requireOperator,
    wrap(async (req, res) => {
      const cursor = cursorOf(req.query.cursor);
      let page: Awaited<ReturnType<typeof operator.listTenants>>;
      try {
        page = await operator.listTenants(prisma, { limit: 50, ...(cursor ? { cursor } : {}) });
      } catch {
        return renderError(req, res, 400, 'The page address is not valid.');
      }
      render(req, res, 'tenants', {
        pageTitle: 'Tenants',
        tenants: page.data,
        cursor: page.cursor,
        tiers: TIERS,
        envs: ENVIRONMENTS,
        values: {},
        when,
      });
    }),
  );

  app.post(
    '/tenants',
    requireOperator,
    wrap(async (req, res) => {
      const values = {
        name: String(req.body.name ?? '').trim(),
        tier: String(req.body.tier ?? ''),
        env: String(req.body.env ?? ''),
        region: String(req.body.region ?? '').trim(),
      };
      const parsed = CreateTenantBody.safeParse({
        name: values.name,
        tier: values.tier,
        env: values.env,
        ...(values.region ? { region: values.region } : {}),
      });
      if (!parsed.success) {
        const page = await operator.listTenants(prisma, { limit: 50 });
        const error = parsed.error.issues.map((i) => `${i.path.join('.') || 'form'}: ${i.message}`).join('; ');
        return render(
          req,
          res,
          'tenants',
          { pageTitle: 'Tenants', tenants: page.data, cursor: page.cursor, tiers: TIERS, envs: ENVIRONMENTS, values, error, when },
          422,
        );
      }
      const created = await operator.createTenant(prisma, actorOf(me(res) as Operator), parsed.data);
      render(req, res, 'tenant-created', { pageTitle: 'Tenant created', created, when }, 201);
    }),
  );

  async function tenantPage(req: Request, res: Response, extra: Record<string, unknown> = {}, status = 200) {
    const tenant = await prisma.tenant.findUnique({ where: { id: String(req.params.id) } });
    if (!tenant) return renderError(req, res, 404, 'There is no such tenant.');
    const [people, keys] = await Promise.all([
      listWebUsers(prisma, tenant.id),
      operator.listKeys(prisma, { tenantId: tenant.id, limit: 20 }),
    ]);
    render(
      req,
      res,
      'tenant',
      {
        pageTitle: tenant.name,
        tenant: operator.renderTenant(tenant),
        people,
        keys: keys.data,
        tiers: TIERS,
        roles: ROLES,
        when,
        ...extra,
      },
      status,
    );
  }

  app.get('/tenants/:id', requireOperator, wrap(tenantPage));

  app.post(
    '/tenants/:id/tier',
    requireOperator,
    wrap(async (req, res) => {
      const tier = String(req.body.tier ?? '') as Tier;
      if (!TIERS.includes(tier)) return tenantPage(req, res, { error: `Choose one of the tiers: ${TIERS.join(', ')}.` }, 422);
      const who = actorOf(me(res) as Operator);
      const changed = await prisma.$transaction(async (tx) => {
        const current = await tx.tenant.findUnique({ where: { id: String(req.params.id) } });
        if (!current) return undefined;
        if (current.tier === tier) return { from: tier, to: tier };
        await tx.tenant.update({ where: { id: current.id }, data: { tier } });
        await recordChange(tx, {
          tenantId: current.id,
          actor: who.actor,
          correlationId: who.correlationId,
          action: 'tenant.tier_changed',
          resourceType: 'svc.operator.tenant',
          resourceId: current.id,
          data: { from: current.tier, to: tier },
          resource: { tenant_id: current.id, from: current.tier, to: tier },
        });
        return { from: current.tier, to: tier };
      });
      if (!changed) return renderError(req, res, 404, 'There is no such tenant.');
      // Cached keys carry the tenant row (and its tier): drop them so the new tier applies now.
      forgetCredential({ tenantId: String(req.params.id) });
      return tenantPage(req, res, {
        notice: changed.from === changed.to ? `The tenant is already on ${tier}.` : `Tier changed from ${changed.from} to ${changed.to}.`,
      });
    }),
  );

  app.post(
    '/tenants/:id/people',
    requireOperator,
    wrap(async (req, res) => {
      const email = String(req.body.email ?? '').trim();
      const role = String(req.body.role ?? '') as Role;
      if (!/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(email)) return tenantPage(req, res, { error: 'Give a valid email address.' }, 422);
      if (!ROLES.includes(role)) return tenantPage(req, res, { error: `Choose one of the roles: ${ROLES.join(', ')}.` }, 422);
      let invitation: Awaited<ReturnType<typeof inviteWebUser>>;
      try {
        invitation = await inviteWebUser(prisma, actorOf(me(res) as Operator), { tenantId: String(req.params.id), email, role });
      } catch (err) {
        return tenantPage(req, res, { error: (err as Error).message }, 422);
      }
      const base = opts.appUrl();
      const link = `${base ?? ''}/sign-in/link?token=${invitation.token}`;
      return tenantPage(req, res, { invitation: { ...invitation, link } }, 201);
    }),
  );

  // --- dead-letter queue ---------------------------------------------------------------------
  const parseTime = (v: unknown): Date | undefined => {
    if (typeof v !== 'string' || !v) return undefined;
    const d = new Date(/Z|[+-]\d\d:\d\d$/.test(v) ? v : `${v}Z`);
    return Number.isNaN(d.getTime()) ? undefined : d;
  };
  const inputTime = (d: Date | undefined) => (d ? d.toISOString().slice(0, 16) : '');

  function dlqFilters(q: Record<string, unknown>) {
    const tenantId = typeof q.tenant === 'string' && q.tenant.trim() ? q.tenant.trim().slice(0, 64) : undefined;
    const eventType = typeof q.type === 'string' && q.type.trim() ? q.type.trim().slice(0, 100) : undefined;
    const since = parseTime(q.since);
    const until = parseTime(q.until);
    return { tenantId, eventType, since, until };
  }

  app.get(
    '/dead-letters',
    requireOperator,
    wrap(async (req, res) => {
      const f = dlqFilters(req.query as Record<string, unknown>);
      const where = {
        status: 'dead_lettered',
        ...(f.since || f.until ? { deadAt: { ...(f.since ? { gte: f.since } : {}), ...(f.until ? { lte: f.until } : {}) } } : {}),
      };
      let page: { data: DeliveryRow[]; cursor: string | null };
      try {
        const cursor = cursorOf(req.query.cursor);
        page = await keysetList(
          prisma.webhookDelivery,
          { limit: 50, ...(cursor ? { cursor } : {}), tenantId: f.tenantId, eventType: f.eventType },
          {
            where,
            filters: ['tenantId', 'eventType'],
            render: (r: DeliveryRow) => r,
          },
        );
      } catch {
        return renderError(req, res, 400, 'The page address is not valid.');
      }
      const attempts = page.data.length
        ? await prisma.webhookAttempt.findMany({ where: { deliveryId: { in: page.data.map((d) => d.id) } } })
        : [];
      const subs = page.data.length
        ? await prisma.webhookSubscription.findMany({
            where: { id: { in: [...new Set(page.data.map((d) => d.subscriptionId))] } },
            select: { id: true, url: true },
          })
        : [];
      const urls = new Map(subs.map((x) => [x.id, x.url]));
      const deliveries = page.data.map((d) => ({
        ...renderDelivery(d, attempts),
        tenantId: d.tenantId,
        url: urls.get(d.subscriptionId) ?? '(subscription deleted)',
        rounds: attempts
          .filter((a) => a.deliveryId === d.id)
          .sort((a, b) => a.round - b.round || a.attempt - b.attempt)
          .map((a) => ({
            round: a.round,
            attempt: a.attempt,
            at: a.startedAt,
            statusCode: a.statusCode,
            latencyMs: a.latencyMs,
            outcome: a.outcome,
            error: a.error,
          })),
      }));
      const query = new URLSearchParams();
      if (f.tenantId) query.set('tenant', f.tenantId);
      if (f.eventType) query.set('type', f.eventType);
      if (f.since) query.set('since', inputTime(f.since));
      if (f.until) query.set('until', inputTime(f.until));
      render(req, res, 'dead-letters', {
        pageTitle: 'Dead-letter queue',
        deliveries,
        cursor: page.cursor,
        filters: { tenant: f.tenantId ?? '', type: f.eventType ?? '', since: inputTime(f.since), until: inputTime(f.until) },
        query: query.toString(),
        replayed: typeof req.query.replayed === 'string' ? req.query.replayed : undefined,
        defaultSince: inputTime(new Date(Date.now() - DAY)),
        when,
      });
    }),
  );

  const noDeadLetter = 'There is no dead-lettered delivery with this id (already replayed?).';
  const unconfirmed = 'Confirm the replay on the confirmation page.';
  /** The confirmation page of a replay: of `one` delivery, or of `many` since a time. */
  const confirmReplay = (req: Request, res: Response, replay: { one: Record<string, unknown> } | { many: Record<string, unknown> }) =>
    render(req, res, 'replay-confirm', { pageTitle: 'Confirm the replay', ...replay, when });

  // Replay one: a confirmation page (GET), then the replay (POST with confirm=yes).
  app.get(
    '/dead-letters/:id/replay',
    requireOperator,
    wrap(async (req, res) => {
      const d = await prisma.webhookDelivery.findUnique({ where: { id: String(req.params.id) } });
      if (d?.status !== 'dead_lettered') return renderError(req, res, 404, noDeadLetter);
      const sub = await prisma.webhookSubscription.findUnique({ where: { id: d.subscriptionId }, select: { url: true } });
      confirmReplay(req, res, {
        one: {
          id: d.id,
          tenantId: d.tenantId,
          eventType: d.eventType,
          eventId: d.eventId,
          url: sub?.url ?? '(subscription deleted)',
          deadAt: d.deadAt,
        },
      });
    }),
  );

  app.post(
    '/dead-letters/:id/replay',
    requireOperator,
    wrap(async (req, res) => {
      if (req.body.confirm !== 'yes') return renderError(req, res, 400, unconfirmed);
      try {
        const result = await replayDeadLetters(prisma, actorOf(me(res) as Operator), { deliveryId: String(req.params.id) });
        res.redirect(303, `/dead-letters?replayed=${result.replayed}`);
      } catch {
        renderError(req, res, 404, noDeadLetter);
      }
    }),
  );

  // Replay all since a time (optionally one tenant): confirmation with the count, then the replay.
  app.get(
    '/dead-letters/replay',
    requireOperator,
    wrap(async (req, res) => {
      const f = dlqFilters(req.query as Record<string, unknown>);
      if (!f.since) return renderError(req, res, 400, 'Give the time to replay from.');
      const count = await prisma.webhookDelivery.count({
        where: { status: 'dead_lettered', deadAt: { gte: f.since }, ...(f.tenantId ? { tenantId: f.tenantId } : {}) },
      });
      confirmReplay(req, res, { many: { since: f.since, sinceInput: inputTime(f.since), tenantId: f.tenantId ?? '', count } });
    }),
  );

  app.post(
    '/dead-letters/replay',
    requireOperator,
    wrap(async (req, res) => {
      if (req.body.confirm !== 'yes') return renderError(req, res, 400, unconfirmed);
      const f = dlqFilters(req.body as Record<string, unknown>);
      if (!f.since) return renderError(req, res, 400, 'Give the time to replay from.');
      const result = await replayDeadLetters(prisma, actorOf(me(res) as Operator), {
        since: f.since.toISOString(),
        ...(f.tenantId ? { tenantId: f.tenantId } : {}),
      });
      res.redirect(303, `/dead-letters?replayed=${result.replayed}`);
    }),
  );

  // --- dispatcher ----------------------------------------------------------------------------
  app.get(
    '/dispatcher',
    requireOperator,
    wrap(async (req, res) => {
      const now = new Date();
      const [pending, due, delivering, expiredLeases, dead, oldest, delivered24h] = await Promise.all([
        prisma.webhookDelivery.count({ where: { status: 'pending' } }),
        prisma.webhookDelivery.count({ where: { status: 'pending', nextAttemptAt: { lte: now } } }),
        prisma.webhookDelivery.count({ where: { status: 'delivering' } }),
        prisma.webhookDelivery.count({ where: { status: 'delivering', leaseExpiresAt: { lte: now } } }),
        prisma.webhookDelivery.count({ where: { status: 'dead_lettered' } }),
        prisma.webhookDelivery.findFirst({
          where: { status: 'pending' },
          orderBy: { createdAt: 'asc' },
          select: { createdAt: true, id: true },
        }),
        prisma.webhookDelivery.count({ where: { status: 'succeeded', deliveredAt: { gte: new Date(now.getTime() - DAY) } } }),
      ]);
      render(req, res, 'dispatcher', {
        pageTitle: 'Dispatcher',
        state: {
          pending,
          due,
          delivering,
          expiredLeases,
          dead,
          delivered24h,
          oldestAge: oldest ? ago(now.getTime() - oldest.createdAt.getTime()) : undefined,
          oldestId: oldest?.id,
          here: opts.dispatcher()?.id,
          role: config.webhooks.role,
        },
        when,
      });
    }),
  );

  s.finish();
  return listen(app, config.http, config.console.port ?? (config.port === 0 ? 0 : 8083), config.console.host, () => {
    prisma.consoleSession
      .deleteMany({ where: { expiresAt: { lt: new Date() } } })
      .catch((err: unknown) => log.warn('console session sweep failed', { error: String(err) }));
  });
}
