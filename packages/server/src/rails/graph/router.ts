import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as graph from './service.ts';

export function graphHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.graph, {
    relations: async ({ query }) => ({ status: 200, body: await graph.listRelations(prisma, query) }),
    blastRadius: async ({ body, res }) => ({ status: 200, body: await graph.blastRadius(prisma, tenantOf(res).tenantId, body.control) }),
    evidenceReuse: async ({ body, res }) => ({
      status: 200,
      body: await graph.evidenceReuse(prisma, tenantOf(res).tenantId, body.evidenceId),
    }),
    onboardingSavings: async ({ res }) => ({ status: 200, body: await graph.onboardingSavings(prisma, tenantOf(res).tenantId) }),
    impact: async ({ query, res }) => ({ status: 200, body: await graph.dictionaryImpact(prisma, tenantOf(res).tenantId, query) }),
  });
}
