import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as risk from './service.ts';

export function riskHandlers({ db }: RailDeps) {
  const { prisma } = db;
  return initServer().router(contract.risk, {
    navigate: async ({ query, res }) => ({ status: 200, body: await risk.navigate(prisma, tenantOf(res).tenantId, query.includeClosed) }),
    policyGaps: async ({ query, res }) => ({ status: 200, body: await risk.policyGaps(prisma, tenantOf(res).tenantId, query) }),
    watchlist: {
      list: async ({ query, res }) => ({ status: 200, body: await risk.listWatchlist(prisma, tenantOf(res).tenantId, query) }),
      add: async ({ body, res }) => ({ status: 201, body: await risk.watch(prisma, actor(res), body) }),
      remove: async ({ params, res }) => ({ status: 200, body: await risk.unwatch(prisma, actor(res), params.riskId) }),
    },
    topRisks: async ({ query, res }) => ({ status: 200, body: await risk.topRisks(prisma, tenantOf(res).tenantId, query) }),
    byDomain: async ({ query, res }) => ({ status: 200, body: await risk.byDomain(prisma, tenantOf(res).tenantId, query.includeClosed) }),
  });
}
