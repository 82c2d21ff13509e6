import { contract, generateOpenApiDocument } from '@svc/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import express, { type Response } from 'express';
import type { Database } from './db/client.ts';
import { ctxOf } from './http/context.ts';
import { idempotency } from './http/idempotency.ts';
import { authenticate, correlation, errorMapper, notFound, rateLimit, routePolicy, tenantHeader } from './http/pipeline.ts';
import type { CounterStore } from './http/rate-limit.ts';
import type { Logger } from './logger.ts';
import { auditTrailHandlers } from './rails/audit-trail.ts';
import { complianceHandlers } from './rails/compliance.ts';
import type { RailDeps } from './rails/deps.ts';
import { eventsHandlers } from './rails/events.ts';
import { frameworksHandlers } from './rails/frameworks.ts';
import { operatorHandlers } from './rails/operator.ts';
import { reconciliationHandlers } from './rails/reconciliation.ts';
import { systemHandlers } from './rails/system.ts';
import { webhooksHandlers } from './rails/webhooks.ts';
import type { WebhookConfig } from './webhooks/config.ts';

export interface AppOptions {
  db: Database;
  log: Logger;
  counters: CounterStore;
  bodyLimit: string;
  authCacheMs: number;
  idempotencyTtlMs: number;
  anonymousPerSecond: number;
  operatorPerSecond: number;
  version: string;
  /** Settings of the webhook routes (target checks, rotation overlap). */
  webhooks: WebhookConfig;
  reconcileIntervalSeconds: number;
}

/** Marks the request as having reached its handler (the idempotency layer stores only those). */
function markHandlers<T>(impl: T): T {
  if (typeof impl === 'function') {
    return ((input: { res: Response }) => {
      ctxOf(input.res).handlerRan = true;
      return impl(input);
    }) as T;
  }
  return Object.fromEntries(Object.entries(impl as object).map(([k, v]) => [k, markHandlers(v)])) as T;
}

export function createApp(opts: AppOptions): express.Express {
  const { prisma } = opts.db;
  const s = initServer();
  const openapi = JSON.stringify(generateOpenApiDocument());

  const deps: RailDeps = { db: opts.db, version: opts.version, reconcileIntervalSeconds: opts.reconcileIntervalSeconds };
  // One entry per key of the contract; a rail missing here does not compile.
  const router = s.router(contract, {
    compliance: complianceHandlers(deps),
    frameworks: frameworksHandlers(deps),
    audit_trail: auditTrailHandlers(deps),
    events: eventsHandlers(deps),
    reconciliation: reconciliationHandlers(deps),
    webhooks: webhooksHandlers(deps, opts.webhooks),
    operator: operatorHandlers(deps),
    system: systemHandlers(deps),
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(correlation(opts.log));
  app.use(authenticate({ prisma, cacheTtlMs: opts.authCacheMs }));
  app.use(rateLimit({ store: opts.counters, anonymousPerSecond: opts.anonymousPerSecond, operatorPerSecond: opts.operatorPerSecond }));
  app.use(tenantHeader);
  app.use(express.json({ limit: opts.bodyLimit, type: ['application/json', 'application/*+json'] }));
  app.get('/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(openapi);
  });
  createExpressEndpoints(contract, markHandlers(router), app, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: false,
    globalMiddleware: [routePolicy, idempotency({ prisma, ttlMs: opts.idempotencyTtlMs })] as never[],
    requestValidationErrorHandler: (err, _req, _res, next) => next(err),
  });
  app.use(notFound);
  app.use(errorMapper());
  return app;
}
