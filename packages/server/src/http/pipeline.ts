import {
  contract,
  DOCS_BASE_URL,
  ERROR_STATUS,
  type ErrorEnvelope,
  flattenRoutes,
  getRail,
  HEADER_NAMES,
  PLANS,
  permits,
  type RouteMeta,
  railForPath,
  TIER_PLAN,
  tierAdmits,
} from '@svc/contract';
import type { AppRoute } from '@ts-rest/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Prisma } from '../db/client.ts';
import { ApiError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Logger } from '../logger.ts';
import { auditAppends, observeRequest, rateLimitRefusals, routeLabel } from '../observability/metrics.ts';
import { hashToken, TOKEN_PATTERN } from '../platform/credentials.ts';
import { cacheCredential, cachedCredential } from './auth-cache.ts';
import { ctxOf, type Principal, type RequestContext, type TenantPrincipal } from './context.ts';
import { type CounterStore, monthWindow } from './rate-limit.ts';
import { validationError } from './validation.ts';

const CORRELATION_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
/**
 * A credential pasted where a correlation id goes would be echoed in every response header and
 * stored in audit events and logs: such a value is replaced, like a malformed one.
 */
const CREDENTIAL_SHAPE = /^(svc_(live|test|dev|op)_|whsec_)/i;

/** First step: a correlation id on every response and one structured log line per request. */
export function correlation(log: Logger): RequestHandler {
  return (req, res, next) => {
    const inbound = req.get(HEADER_NAMES.correlationId);
    const correlationId = inbound && CORRELATION_PATTERN.test(inbound) && !CREDENTIAL_SHAPE.test(inbound) ? inbound : newId('cor');
    const ctx: RequestContext = {
      correlationId,
      log,
      principal: { kind: 'anonymous' },
      handlerRan: false,
    };
    res.locals.ctx = ctx;
    res.setHeader('X-Correlation-Id', correlationId);
    const started = process.hrtime.bigint();
    const logged = log.enabled('info');
    res.on('finish', () => {
      const ns = Number(process.hrtime.bigint() - started);
      const route = (req as Request & { tsRestRoute?: AppRoute }).tsRestRoute;
      observeRequest(req.method, metricsRoute(req), res.statusCode, ns / 1e9);
      // The audit event of a mutating route is written with the change: a 2xx that is not a replay
      // of a stored idempotent answer appended one.
      const meta = route?.metadata as RouteMeta | undefined;
      if (meta?.mutating && meta.audit && res.statusCode < 300 && !res.hasHeader('Idempotent-Replayed')) {
        auditAppends.inc({ action: meta.audit });
      }
      if (!logged) return;
      const p = ctx.principal;
      log.request({
        correlation_id: correlationId,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        duration_ms: ns / 1e6,
        tenant_id: p.kind === 'tenant' ? p.tenantId : undefined,
        actor: p.kind === 'tenant' ? p.keyId : p.kind === 'operator' ? p.credentialId : undefined,
      });
    });
    next();
  };
}

export interface AuthOptions {
  prisma: Prisma;
  /** How long a resolved key may be served from memory. */
  cacheTtlMs: number;
}

/**
 * Resolves the bearer token to a principal. A missing or refused token leaves the request
 * anonymous; the route decides whether that is a 401, so public routes stay reachable.
 */
export function authenticate({ prisma, cacheTtlMs }: AuthOptions): RequestHandler {
  const touched = new Map<string, number>();
  return async (req, res, next) => {
    const ctx = ctxOf(res);
    const header = req.get('authorization');
    if (!header) return next();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const token = match?.[1];
    if (!token || !TOKEN_PATTERN.test(token)) {
      ctx.principal = { kind: 'anonymous', rejection: 'The Authorization header must be `Bearer svc_<env>_<random>`.' };
      return next();
    }
    try {
      const hash = hashToken(token);
      if (token.startsWith('svc_op_')) {
        const cred = await prisma.operatorCredential.findUnique({ where: { hash } });
        ctx.principal =
          cred && !cred.revokedAt
            ? { kind: 'operator', credentialId: cred.id }
            : { kind: 'anonymous', rejection: 'The operator credential is unknown or revoked.' };
        return next();
      }
      const now = new Date();
      const cached = cachedCredential(hash, now.getTime());
      const key = cached?.key ?? (await prisma.apiKey.findUnique({ where: { hash } }));
      if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= now)) {
        ctx.principal = {
          kind: 'anonymous',
          rejection: !key ? 'The API key is unknown.' : key.revokedAt ? 'The API key was revoked.' : 'The API key has expired.',
        };
        return next();
      }
      const tenant = cached?.tenant ?? (await prisma.tenant.findUnique({ where: { id: key.tenantId } }));
      if (!tenant) {
        ctx.principal = { kind: 'anonymous', rejection: 'The API key belongs to no tenant.' };
        return next();
      }
      if (!cached) cacheCredential(hash, key, tenant, cacheTtlMs, now.getTime());
      ctx.principal = {
        kind: 'tenant',
        tenantId: tenant.id,
        tier: tenant.tier as TenantPrincipal['tier'],
        env: tenant.env,
        rateLimitPerSecond: tenant.rateLimitPerSecond,
        monthlyQuota: tenant.monthlyQuota,
        keyId: key.id,
        role: key.role as TenantPrincipal['role'],
        scopes: key.scopes,
        personId: key.personId,
      };
      // last_used_at is informational: written at most once a minute per key.
      const last = touched.get(key.id) ?? 0;
      if (now.getTime() - last > 60_000) {
        touched.set(key.id, now.getTime());
        prisma.apiKey
          .update({ where: { id: key.id }, data: { lastUsedAt: now } })
          .catch((err: unknown) => ctx.log.warn('last_used_at update failed', { error: String(err) }));
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}

export interface RateLimitOptions {
  store: CounterStore;
  /** Per-second limit of requests without a valid credential, per client address. */
  anonymousPerSecond: number;
  operatorPerSecond: number;
}

function limitsOf(p: Principal, opts: RateLimitOptions): { key: string; perSecond: number; perMonth: number | null } {
  if (p.kind === 'tenant') {
    const plan = PLANS[TIER_PLAN[p.tier]];
    return {
      key: `t:${p.tenantId}`,
      perSecond: p.rateLimitPerSecond ?? plan.perSecond,
      perMonth: p.monthlyQuota ?? plan.perMonth,
    };
  }
  if (p.kind === 'operator') return { key: `o:${p.credentialId}`, perSecond: opts.operatorPerSecond, perMonth: null };
  return { key: 'a', perSecond: opts.anonymousPerSecond, perMonth: null };
}

/**
 * Per-second limit and monthly quota, counted per tenant (per address for anonymous calls).
 * It runs right after authentication so that every response, 401 and 403 included, carries the
 * X-RateLimit headers.
 */
export function rateLimit(opts: RateLimitOptions): RequestHandler {
  return async (req, res, next) => {
    const ctx = ctxOf(res);
    const limits = limitsOf(ctx.principal, opts);
    const key = ctx.principal.kind === 'anonymous' ? `a:${req.ip}` : limits.key;
    try {
      const now = Date.now();
      const second = Math.floor(now / 1000) * 1000;
      const hit = await opts.store.hit(`s:${key}`, second, second + 1000);
      const remaining = Math.max(0, limits.perSecond - hit.count);
      res.setHeader('X-RateLimit-Limit', String(limits.perSecond));
      res.setHeader('X-RateLimit-Remaining', String(remaining));
      res.setHeader('X-RateLimit-Reset', String(Math.ceil(hit.resetAt / 1000)));
      if (hit.count > limits.perSecond) {
        rateLimitRefusals.inc({ limit: 'per_second', principal: ctx.principal.kind });
        const retry = Math.max(1, Math.ceil((hit.resetAt - now) / 1000));
        throw new ApiError('rate_limited', `Rate limit of ${limits.perSecond} requests per second exceeded.`, undefined, {
          'Retry-After': String(retry),
        });
      }
      if (limits.perMonth !== null) {
        const month = monthWindow(new Date(now));
        const used = await opts.store.hit(`m:${key}`, month.start, month.end);
        if (used.count > limits.perMonth) {
          rateLimitRefusals.inc({ limit: 'monthly_quota', principal: ctx.principal.kind });
          const retry = Math.max(1, Math.ceil((month.end - now) / 1000));
          throw new ApiError(
            'rate_limited',
            `Monthly quota of ${limits.perMonth} requests is used up; it renews at ${new Date(month.end).toISOString()}.`,
            [{ field: 'quota', issue: 'monthly_quota_exhausted' }],
            { 'Retry-After': String(retry) },
          );
        }
      }
      next();
    } catch (err) {
      if (err instanceof ApiError) return next(err);
      next(new ApiError('service_unavailable', 'The rate limiter is unavailable; retry with backoff.', undefined, { 'Retry-After': '1' }));
    }
  };
}

/** `X-IOF-Tenant` is optional; when present it must name the token's tenant. */
export const tenantHeader: RequestHandler = (req, res, next) => {
  const header = req.get(HEADER_NAMES.tenant);
  const p = ctxOf(res).principal;
  if (header !== undefined && p.kind === 'tenant' && header !== p.tenantId) {
    return next(
      new ApiError('forbidden', 'X-IOF-Tenant does not match the tenant of the API key.', [
        { field: 'X-IOF-Tenant', issue: 'invalid_value' },
      ]),
    );
  }
  next();
};

function unauthorized(p: Principal): ApiError {
  const reason = p.kind === 'anonymous' && p.rejection ? p.rejection : 'A bearer token is required.';
  return new ApiError('unauthorized', reason);
}

/** Tier gate of a rail: the minimum tier and, for the seed rail, the tiers it is limited to. */
export function checkTier(p: TenantPrincipal, railId: Parameters<typeof getRail>[0]): void {
  const rail = getRail(railId);
  const allowed = rail.onlyTiers ? rail.onlyTiers.includes(p.tier) : tierAdmits(p.tier, rail.minTier);
  if (!allowed) {
    const need = rail.onlyTiers ? `the ${rail.onlyTiers.join(' or ')} tier` : `tier ${rail.minTier} or above`;
    throw new ApiError('forbidden', `The ${rail.id} rail needs ${need}; this tenant is on ${p.tier}.`, [
      { field: 'tier', issue: rail.onlyTiers ? rail.onlyTiers.join('|') : rail.minTier },
    ]);
  }
}

/** Route policy from the contract's metadata: who may call, which tier, which permission. */
export const routePolicy = (req: Request, res: Response, next: NextFunction) => {
  const route = (req as Request & { tsRestRoute: AppRoute }).tsRestRoute;
  const meta = route.metadata as RouteMeta;
  const p = ctxOf(res).principal;
  try {
    if (meta.auth === 'public') return next();
    if (p.kind === 'anonymous') throw unauthorized(p);
    if (meta.auth === 'operator' && p.kind !== 'operator') throw new ApiError('forbidden', 'This route needs an operator credential.');
    if (meta.auth === 'tenant') {
      if (p.kind !== 'tenant') throw new ApiError('forbidden', 'This route needs a tenant API key.');
      if (meta.rail) checkTier(p, meta.rail);
      if (meta.permission && !permits(p.role, p.scopes, meta.permission)) {
        const why = permits(p.role, [], meta.permission) ? 'the scopes of this key do not include it' : `role ${p.role} does not grant it`;
        throw new ApiError('forbidden', `Permission ${meta.permission} is required: ${why}.`, [
          { field: 'permission', issue: meta.permission },
        ]);
      }
    }
    next();
  } catch (err) {
    next(err);
  }
};

/** Matchers for every route, to tell an unknown path from a known path with the wrong method. */
const routeMatchers = flattenRoutes(contract).map(({ route }) => ({
  method: route.method,
  path: route.path,
  pattern: new RegExp(`^${route.path.replace(/:[A-Za-z0-9_]+/g, '[^/]+')}/?$`),
}));

/**
 * The route label of a request's metrics: the matched route's pattern; for a request refused
 * before its route ran (401, 403, 429 from the steps before the router), the pattern of the
 * contract route its method and path name; else Express's route or `unmatched`.
 */
function metricsRoute(req: Request): string {
  const label = routeLabel(req as Parameters<typeof routeLabel>[0]);
  if (label !== 'unmatched' || !req.path.startsWith('/v1/')) return label;
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  return routeMatchers.find((m) => m.method === method && m.pattern.test(req.path))?.path ?? label;
}

/** After every route: wrong method, a rail that is gated or not built, or an unknown path. */
export const notFound: RequestHandler = (req, res, next) => {
  const p = ctxOf(res).principal;
  const path = req.path;
  const rail = railForPath(path);
  if (path.startsWith('/v1/') && p.kind === 'anonymous') return next(unauthorized(p));
  if (rail && p.kind === 'tenant') {
    try {
      checkTier(p, rail.id as Parameters<typeof getRail>[0]);
    } catch (err) {
      return next(err);
    }
  }
  const allowed = [...new Set(routeMatchers.filter((m) => m.pattern.test(path)).map((m) => m.method))];
  if (allowed.length > 0) {
    res.setHeader('Allow', allowed.join(', '));
    return next(new ApiError('not_found', `${req.method} is not supported on ${path}; allowed: ${allowed.join(', ')}.`));
  }
  next(new ApiError('not_found', `No route ${req.method} ${path}.`));
};

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  code?: string;
  message?: string;
  /** The raw body body-parser could not accept. */
  body?: unknown;
  cause?: unknown;
  meta?: { code?: unknown };
}

/**
 * The SQLSTATE of a database error, however it arrives: from pg, from PGlite, or wrapped by
 * Prisma (a known request error's meta, a driver adapter error's cause).
 */
function sqlStateOf(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  let e = err as HttpishError | undefined;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    for (const c of [e.code, e.meta?.code, (e as { originalCode?: unknown }).originalCode]) {
      if (typeof c === 'string' && /^[0-9A-Z]{5}$/.test(c)) return c;
    }
    e = e.cause as HttpishError | undefined;
  }
  return undefined;
}

/**
 * SQLSTATEs of a database that is gone or not taking sessions: connection exceptions (class 08),
 * admin_shutdown, crash_shutdown, cannot_connect_now (57P01-57P03), too_many_connections (53300).
 */
const DB_UNAVAILABLE_STATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** Prisma's codes for the same: not reachable, timed out, connection closed, too many connections. */
const DB_UNAVAILABLE_PRISMA = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2037']);
/** Socket errors of the driver's connection. */
const DB_UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** Kinds of Prisma's driver adapter errors for the same. */
const DB_UNAVAILABLE_KIND = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** pg's errors for a connection lost or not obtained carry no code, only these messages. */
const DB_UNAVAILABLE_MESSAGE =
  /Connection terminated|encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)/i;

/**
 * Whether an error means the database cannot be reached or has dropped the connection, however it
 * arrives: from pg itself, or wrapped by Prisma (a known request error's code, the driver adapter
 * error in its meta, the adapter error's cause).
 */
function databaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const e = queue.shift() as
      | (HttpishError & {
          kind?: unknown;
          originalCode?: unknown;
          errors?: unknown;
          meta?: { code?: unknown; driverAdapterError?: unknown };
        })
      | undefined;
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    for (const c of [e.code, e.originalCode, e.meta?.code]) {
      if (typeof c === 'string' && (DB_UNAVAILABLE_STATE.test(c) || DB_UNAVAILABLE_PRISMA.has(c) || DB_UNAVAILABLE_ERRNO.has(c)))
        return true;
    }
    if (typeof e.kind === 'string' && DB_UNAVAILABLE_KIND.has(e.kind)) return true;
    if (typeof e.message === 'string' && DB_UNAVAILABLE_MESSAGE.test(e.message)) return true;
    queue.push(e.cause, e.meta?.driverAdapterError, ...(Array.isArray(e.errors) ? e.errors : []));
  }
  return false;
}

function toApiError(err: unknown, req: Request): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err && typeof err === 'object' && 'pathParams' in err && 'body' in err && 'query' in err) {
    return validationError(err as Parameters<typeof validationError>[0], { params: req.params, query: req.query, body: req.body });
  }
  const e = (err ?? {}) as HttpishError;
  switch (e.type) {
    case 'entity.parse.failed': {
      // Strict parsing takes objects and arrays only; a bare string, number or null is valid JSON.
      let bare = false;
      try {
        JSON.parse(String(e.body));
        bare = true;
      } catch {}
      return bare
        ? new ApiError('bad_request', 'The request body must be a JSON object.', [{ field: 'body', issue: 'invalid_type' }])
        : new ApiError('bad_request', 'The request body is not valid JSON.', [{ field: 'body', issue: 'invalid_format' }]);
    }
    case 'entity.too.large':
      return new ApiError('bad_request', 'The request body is too large.', [{ field: 'body', issue: 'too_big' }]);
    case 'encoding.unsupported':
    case 'charset.unsupported':
    case 'request.size.invalid':
    case 'request.aborted':
      return new ApiError('bad_request', 'The request body could not be read.', [{ field: 'body', issue: 'invalid_format' }]);
  }
  if (e.code === 'P2002') return new ApiError('conflict', 'A resource with the same identity already exists.');
  // A value the schemas let through but the database cannot hold (out of range, too long for an
  // index, malformed for its type): the request is at fault, and nothing was written.
  const state = sqlStateOf(err);
  if (e.code === 'P2000' || e.code === 'P2020' || (state && (state.startsWith('22') || state === '54000'))) {
    return new ApiError('validation_failed', 'A value in the request cannot be stored (out of range, too long or malformed).', [
      { field: 'body', issue: 'invalid_value' },
    ]);
  }
  if (state === '23505') return new ApiError('conflict', 'A resource with the same identity already exists.');
  if (e.code === 'P2025') return new ApiError('not_found', 'The resource was not found.');
  // Transaction API errors (no connection in time, transaction expired): the database is busy.
  if (e.code === 'P2028' || e.code === 'P2024') {
    return new ApiError('service_unavailable', 'The database is busy; retry with backoff.', undefined, { 'Retry-After': '1' });
  }
  // A database that is restarting, failing over or unreachable is a condition to wait out, not a
  // fault of the service: the pool drops the lost connections and opens new ones by itself.
  if (databaseUnavailable(err)) {
    return new ApiError('service_unavailable', 'The database is unavailable; retry with backoff.', undefined, { 'Retry-After': '1' });
  }
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError('bad_request', 'The request could not be read.');
  }
  return undefined;
}

export interface ErrorMapperOptions {
  /**
   * Page documenting the error codes, one anchor per code (`documentation_url` is `<page>#<code>`):
   * the service's own /docs/errors under its public URL. Read per request (the port is known only
   * once listening); DOCS_BASE_URL of the contract when not given.
   */
  docsUrl?: () => string;
}

/** The one error mapper: every failure leaves as the envelope, never with a stack trace. */
export function errorMapper(opts: ErrorMapperOptions = {}): (err: unknown, req: Request, res: Response, next: NextFunction) => void {
  return (err, req, res, _next) => {
    const ctx = res.locals.ctx as RequestContext | undefined;
    const correlationId = ctx?.correlationId ?? newId('cor');
    let apiErr = toApiError(err, req);
    if (!apiErr) {
      ctx?.log.error('unhandled error', {
        correlation_id: correlationId,
        method: req.method,
        path: req.path,
        error: err instanceof Error ? err.message : String(err),
        stack: err instanceof Error ? err.stack : undefined,
      });
      apiErr = new ApiError('internal_error', 'The server failed to handle the request; quote the correlation id to support.');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    const body: ErrorEnvelope = {
      error: apiErr.code,
      message: apiErr.message,
      ...(apiErr.details && apiErr.details.length > 0 ? { details: apiErr.details } : {}),
      correlation_id: correlationId,
      documentation_url: `${opts.docsUrl?.() ?? DOCS_BASE_URL}#${apiErr.code}`,
    };
    for (const [k, v] of Object.entries(apiErr.headers ?? {})) res.setHeader(k, v);
    // Every 503 tells the client when to come back, also those raised without a header of their own.
    if (apiErr.code === 'service_unavailable' && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', '1');
    res.status(ERROR_STATUS[apiErr.code]).json(body);
  };
}
