/**
 * Prometheus metrics (prom-client), one registry for the process, scraped at GET /metrics.
 *
 * Labels stay bounded: a request is labelled by the contract's route pattern
 * (`/v1/compliance/assessments/:id`), never by its raw URL; a request that matched no route is
 * `unmatched`. Database gauges (outbox, dead-letter queue) are read on scrape, at most once per
 * CACHE_MS per database, so a scraper polling fast costs one small query now and then.
 */
import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client.ts';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: 'svc_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'svc_http_request_duration_seconds',
  help: 'Time from the first byte of the request to the end of the response, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const rateLimitRefusals = new Counter({
  name: 'svc_rate_limit_refusals_total',
  help: 'Requests refused with 429 rate_limited, by limit (per_second, monthly_quota) and caller kind (tenant, operator, anonymous).',
  labelNames: ['limit', 'principal'] as const,
  registers: [registry],
});

export const signInRefusals = new Counter({
  name: 'svc_sign_in_refusals_total',
  help: 'Web sign-ins refused before the password was checked, by reason: address, network (/24, /64), account (backoff), busy (password hashes at their cap), unavailable (the throttle store did not answer).',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const passwordHashesInFlight = new Gauge({
  name: 'svc_password_hashes_in_flight',
  help: 'Password hashes (scrypt) being computed by the web application now, at most SVC_SIGN_IN_HASH_CONCURRENCY.',
  registers: [registry],
});

export const auditAppends = new Counter({
  name: 'svc_audit_appends_total',
  help: 'Audit-trail events appended by successful mutating requests, by audit action.',
  labelNames: ['action'] as const,
  registers: [registry],
});

export const chainRetries = new Counter({
  name: 'svc_audit_chain_retries_total',
  help: "Changes that found their tenant's audit-chain head moved by another writer and ran again holding its lock.",
  registers: [registry],
});

const dbPool = new Gauge({
  name: 'svc_db_pool_connections',
  help: 'Database connections by state: max (pool size), total (open), idle, in_use, waiting (requests queued for one). PGlite has one connection.',
  labelNames: ['state'] as const,
  registers: [registry],
});

const outboxDepth = new Gauge({
  name: 'svc_webhook_outbox_depth',
  help: 'Webhook deliveries not yet delivered nor dead-lettered (pending or being delivered).',
  registers: [registry],
});

const outboxOldestAge = new Gauge({
  name: 'svc_webhook_outbox_oldest_age_seconds',
  help: 'Age of the oldest webhook delivery still in the outbox; 0 when it is empty.',
  registers: [registry],
});

const dlqSize = new Gauge({
  name: 'svc_webhook_dlq_size',
  help: 'Webhook deliveries parked in the dead-letter queue after their last attempt failed.',
  registers: [registry],
});

const scrapeErrors = new Counter({
  name: 'svc_metrics_scrape_errors_total',
  help: 'Scrapes whose database gauges could not be read (the gauges keep their last values).',
  registers: [registry],
});

/** The part of pg's Pool the gauges read. */
export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options?: { max?: number };
}

const pools = new WeakMap<object, PoolStats>();

/**
 * Registers the pg Pool behind a database so /metrics reports its use. db/client.ts calls it with
 * the Pool it creates (keyed by the Prisma client, which the app also holds).
 */
export function registerDbPool(owner: object, pool: PoolStats): void {
  pools.set(owner, pool);
}

const isPool = (v: unknown): v is PoolStats =>
  typeof v === 'object' && v !== null && typeof (v as PoolStats).totalCount === 'number' && typeof (v as PoolStats).idleCount === 'number';

/**
 * The pg Pool of a PostgreSQL database: the registered one, else the one Prisma's pg adapter was
 * built with (db/client.ts passes its Pool to PrismaPg, which keeps it as `externalPool`).
 */
function poolOf(db: Database): PoolStats | undefined {
  const registered = pools.get(db.prisma);
  if (registered) return registered;
  const adapter = (db.prisma as unknown as { _engineConfig?: { adapter?: { externalPool?: unknown } } })._engineConfig?.adapter;
  return isPool(adapter?.externalPool) ? adapter.externalPool : undefined;
}

/** The route pattern of a request: the contract's (ts-rest sets it), else Express's own, else `unmatched`. */
export function routeLabel(req: { tsRestRoute?: { path: string }; route?: { path?: unknown }; baseUrl?: string }): string {
  if (req.tsRestRoute?.path) return req.tsRestRoute.path;
  if (req.route && typeof req.route.path === 'string') return `${req.baseUrl ?? ''}${req.route.path}`;
  return 'unmatched';
}

/** Records one answered request (called from the pipeline's first step when the response finishes). */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  const labels = { method, route, status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
}

const CACHE_MS = 5_000;
const lastRead = new WeakMap<Database, { at: number; values: DbValues }>();

interface DbValues {
  depth: number;
  oldestAge: number;
  dlq: number;
}

async function readDb(db: Database): Promise<DbValues> {
  const cached = lastRead.get(db);
  const now = Date.now();
  if (cached && now - cached.at < CACHE_MS) return cached.values;
  const [row] = await db.sql.query<{ depth: string | number; dlq: string | number; oldest: Date | string | null }>(
    `SELECT count(*) FILTER (WHERE "status" IN ('pending', 'delivering')) AS depth,
            count(*) FILTER (WHERE "status" = 'dead_lettered') AS dlq,
            min("created_at") FILTER (WHERE "status" IN ('pending', 'delivering')) AS oldest
       FROM "webhook_deliveries"
      WHERE "status" IN ('pending', 'delivering', 'dead_lettered')`,
  );
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : undefined;
  const values = {
    depth: Number(row?.depth ?? 0),
    dlq: Number(row?.dlq ?? 0),
    oldestAge: oldest === undefined ? 0 : Math.max(0, (now - oldest) / 1000),
  };
  lastRead.set(db, { at: now, values });
  return values;
}

/** Sets the gauges that depend on one database (the one of the app being scraped). */
export async function refreshDbGauges(db: Database): Promise<void> {
  const pool = db.kind === 'postgresql' ? poolOf(db) : undefined;
  if (db.kind === 'pglite') {
    dbPool.set({ state: 'max' }, 1);
    dbPool.set({ state: 'total' }, 1);
    dbPool.set({ state: 'idle' }, 1);
    dbPool.set({ state: 'in_use' }, 0);
    dbPool.set({ state: 'waiting' }, 0);
  } else if (pool) {
    if (pool.options?.max !== undefined) dbPool.set({ state: 'max' }, pool.options.max);
    dbPool.set({ state: 'total' }, pool.totalCount);
    dbPool.set({ state: 'idle' }, pool.idleCount);
    dbPool.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    dbPool.set({ state: 'waiting' }, pool.waitingCount);
  }
  try {
    const v = await readDb(db);
    outboxDepth.set(v.depth);
    outboxOldestAge.set(v.oldestAge);
    dlqSize.set(v.dlq);
  } catch {
    scrapeErrors.inc();
  }
}

export interface MetricsRouteOptions {
  db: Database;
  /** When set, a scrape must send `Authorization: Bearer <token>` (SVC_METRICS_TOKEN). */
  token?: string | undefined;
}

/** GET /metrics in Prometheus text format. */
export function metricsHandler(opts: MetricsRouteOptions): RequestHandler {
  const expected = opts.token ? Buffer.from(`Bearer ${opts.token}`) : undefined;
  return async (req, res, next) => {
    try {
      if (expected) {
        const given = Buffer.from(req.get('authorization') ?? '');
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          res.status(401).setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
          res.type('text/plain').send('metrics need the bearer token of SVC_METRICS_TOKEN\n');
          return;
        }
      }
      await refreshDbGauges(opts.db);
      const text = await registry.metrics();
      res.setHeader('Cache-Control', 'no-store');
      res.type(registry.contentType).send(text);
    } catch (err) {
      next(err);
    }
  };
}
