import { contract, generateOpenApiDocument } from '@svc/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import express, { type Response } from 'express';
import type { Database } from './db/client.ts';
import { ApiError } from './errors.ts';
import { actorOf, ctxOf, type TenantPrincipal } from './http/context.ts';
import { idempotency } from './http/idempotency.ts';
import { authenticate, correlation, errorMapper, notFound, rateLimit, routePolicy, tenantHeader } from './http/pipeline.ts';
import type { CounterStore } from './http/rate-limit.ts';
import type { Logger } from './logger.ts';
import * as compliance from './services/compliance.ts';
import * as frameworks from './services/frameworks.ts';
import * as operator from './services/operator.ts';

export interface AppOptions {
  db: Database;
  log: Logger;
  counters: CounterStore;
  bodyLimit: string;
  idempotencyTtlMs: number;
  anonymousPerSecond: number;
  operatorPerSecond: number;
  version: string;
}

function tenantOf(res: Response): TenantPrincipal {
  const p = ctxOf(res).principal;
  // routePolicy admits only tenant principals to tenant routes; this guards a wiring mistake.
  if (p.kind !== 'tenant') throw new ApiError('forbidden', 'This route needs a tenant API key.');
  return p;
}

function actor(res: Response) {
  const ctx = ctxOf(res);
  return { tenantId: tenantOf(res).tenantId, actor: actorOf(ctx.principal), correlationId: ctx.correlationId };
}

function operatorActor(res: Response) {
  const ctx = ctxOf(res);
  return { actor: actorOf(ctx.principal), correlationId: ctx.correlationId };
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

  const router = s.router(contract, {
    compliance: {
      listFrameworks: async ({ query, res }) => ({
        status: 200,
        body: await compliance.listTenantFrameworks(prisma, tenantOf(res).tenantId, query),
      }),
      listAssessments: async ({ query, res }) => ({
        status: 200,
        body: await compliance.listAssessments(prisma, tenantOf(res).tenantId, query),
      }),
      createAssessment: async ({ body, res }) => ({ status: 201, body: await compliance.createAssessment(prisma, actor(res), body) }),
      getAssessment: async ({ params, res }) => ({
        status: 200,
        body: await compliance.getAssessment(prisma, tenantOf(res).tenantId, params.id),
      }),
      listObligations: async ({ query, res }) => ({
        status: 200,
        body: await compliance.listObligations(prisma, tenantOf(res).tenantId, query),
      }),
      createEvidence: async ({ body, res }) => ({ status: 201, body: await compliance.createEvidence(prisma, actor(res), body) }),
      listEvidence: async ({ query, res }) => ({ status: 200, body: await compliance.listEvidence(prisma, tenantOf(res).tenantId, query) }),
      getEvidence: async ({ params, res }) => ({
        status: 200,
        body: await compliance.getEvidence(prisma, tenantOf(res).tenantId, params.id),
      }),
      createAttestation: async ({ body, res }) => ({ status: 201, body: await compliance.createAttestation(prisma, actor(res), body) }),
      listAttestations: async ({ query, res }) => ({
        status: 200,
        body: await compliance.listAttestations(prisma, tenantOf(res).tenantId, query),
      }),
      getAttestation: async ({ params, res }) => ({
        status: 200,
        body: await compliance.getAttestation(prisma, tenantOf(res).tenantId, params.id),
      }),
    },
    frameworks: {
      list: async ({ query }) => ({ status: 200, body: await frameworks.listFrameworks(prisma, query) }),
      get: async ({ params }) => ({ status: 200, body: await frameworks.getFramework(prisma, params.id) }),
      clauses: async ({ params, query }) => ({ status: 200, body: await frameworks.listClauses(prisma, params.id, query) }),
      controls: async ({ params, query }) => ({ status: 200, body: await frameworks.listControls(prisma, params.id, query) }),
      questions: async ({ params, query }) => ({ status: 200, body: await frameworks.listQuestions(prisma, params.id, query) }),
      activate: async ({ params, body, res }) => {
        const who = actor(res);
        const result = await frameworks.activateFramework(prisma, {
          ...who,
          ref: params.id,
          ...(body?.version ? { version: body.version } : {}),
        });
        return result.created ? { status: 201, body: result.activation } : { status: 200, body: result.activation };
      },
    },
    operator: {
      listTenants: async ({ query }) => ({ status: 200, body: await operator.listTenants(prisma, query) }),
      createTenant: async ({ body, res }) => ({ status: 201, body: await operator.createTenant(prisma, operatorActor(res), body) }),
      listKeys: async ({ query }) => ({ status: 200, body: await operator.listKeys(prisma, query) }),
      createKey: async ({ body, res }) => ({ status: 201, body: await operator.createKey(prisma, operatorActor(res), body) }),
      revokeKey: async ({ params, res }) => ({ status: 200, body: await operator.revokeKey(prisma, operatorActor(res), params.id) }),
    },
    system: {
      health: async () => {
        try {
          await prisma.$queryRaw`SELECT 1`;
        } catch {
          throw new ApiError('service_unavailable', 'The database is not reachable.');
        }
        return { status: 200, body: { status: 'ok' as const, version: opts.version, database: opts.db.kind } };
      },
    },
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(correlation(opts.log));
  app.use(authenticate({ prisma }));
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
