import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { ApiError } from '../../errors.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as rec from './service.ts';

export function reconciliationHandlers({ db: { prisma }, reconcileIntervalSeconds }: RailDeps) {
  return initServer().router(contract.reconciliation, {
    getDeclared: async ({ res }) => ({ status: 200, body: await rec.getDeclared(prisma, tenantOf(res).tenantId) }),
    putDeclared: async ({ body, res }) => ({ status: 200, body: await rec.putDeclared(prisma, actor(res), body) }),
    run: async ({ res }) => {
      const run = await rec.reconcileTenant(prisma, tenantOf(res).tenantId, 'manual');
      if (!run) throw new ApiError('conflict', 'A reconciliation run of this tenant is in progress; retry shortly.');
      return { status: 200, body: run };
    },
    events: async ({ query, res }) => ({ status: 200, body: await rec.listDrifts(prisma, tenantOf(res).tenantId, query) }),
    summary: async ({ res }) => ({ status: 200, body: await rec.driftSummary(prisma, tenantOf(res).tenantId, reconcileIntervalSeconds) }),
  });
}
