import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as seed from './service.ts';

/** The seed rail: sandbox tenants only (the catalogue's `onlyTiers` gates every route). */
export function seedHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.seed, {
    tenants: async ({ body, res }) => ({
      status: 200,
      body: await seed.seedTenant(prisma, actor(res), {
        ...(body.frameworks ? { frameworks: body.frameworks } : {}),
        ...(body.assessments !== undefined ? { assessments: body.assessments } : {}),
        ...(body.evidence !== undefined ? { evidence: body.evidence } : {}),
      }),
    }),
    frameworks: async ({ body, res }) => ({
      status: 200,
      body: await seed.seedFrameworks(prisma, actor(res), body?.frameworks),
    }),
    evidence: async ({ body, res }) => ({
      status: 200,
      body: await seed.seedEvidence(prisma, actor(res), {
        ...(body?.count !== undefined ? { count: body.count } : {}),
        ...(body?.systemIds ? { systemIds: body.systemIds } : {}),
      }),
    }),
    reset: async ({ res }) => ({ status: 200, body: await seed.resetTenant(prisma, actor(res)) }),
    demoTour: async ({ res }) => ({ status: 200, body: await seed.demoTour(prisma, tenantOf(res).tenantId) }),
  });
}
