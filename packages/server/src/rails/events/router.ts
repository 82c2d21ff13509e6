import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import { listDrifts } from '../reconciliation/service.ts';
import * as events from './service.ts';

export function eventsHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.events, {
    emit: async ({ body, res }) => ({ status: 201, body: await events.emitEvent(prisma, actor(res), body) }),
    list: async ({ query, res }) => ({ status: 200, body: await events.listEvents(prisma, tenantOf(res).tenantId, query) }),
    query: async ({ body, res }) => ({ status: 200, body: await events.queryEvents(prisma, tenantOf(res).tenantId, body) }),
    lifecycle: async ({ query, res }) => ({
      status: 200,
      body: await events.entityLifecycle(prisma, tenantOf(res).tenantId, query.entity),
    }),
    trail: async ({ query, res }) => ({
      status: 200,
      body: await events.correlationTrail(prisma, tenantOf(res).tenantId, query.correlationId),
    }),
    sources: async ({ res }) => ({ status: 200, body: await events.eventSources(prisma, tenantOf(res).tenantId) }),
    drifts: async ({ query, res }) => ({ status: 200, body: await listDrifts(prisma, tenantOf(res).tenantId, query) }),
  });
}
