import { contract, dsarExports, dsarRedactions, dsarRequests, fulfillmentItems } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as dsar from './service.ts';

export function dsarHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const requestRoutes = serveResource(db, dsarRequests, dsar.requestStore);
  const itemRoutes = serveResource(db, fulfillmentItems, dsar.itemStore);
  const redactionRoutes = serveResource(db, dsarRedactions, dsar.redactionStore);
  return initServer().router(contract.dsar, {
    requests: {
      ...requestRoutes,
      // The lifecycle's checks (open items, a rejection's reason) run in the transition's transaction.
      fulfill: async ({ params, body, res }) => ({
        status: 200,
        body: await dsar.transitionRequest(prisma, actor(res), params.id, 'fulfill', body?.reason),
      }),
      reject: async ({ params, body, res }) => ({
        status: 200,
        body: await dsar.transitionRequest(prisma, actor(res), params.id, 'reject', body?.reason),
      }),
      extend: async ({ params, body, res }) => ({ status: 200, body: await dsar.extendRequest(prisma, actor(res), params.id, body) }),
    },
    verify: async ({ body, res }) => ({ status: 200, body: await dsar.verifyRequest(prisma, actor(res), body) }),
    stores: {
      list: async ({ query, res }) => ({ status: 200, body: await dsar.listStores(prisma, tenantOf(res).tenantId, query) }),
      create: async ({ body, res }) => ({ status: 201, body: await dsar.createStore(prisma, actor(res), body) }),
      get: async ({ params, res }) => ({ status: 200, body: await dsar.getStore(prisma, tenantOf(res).tenantId, params.id) }),
    },
    fulfillment: {
      ...itemRoutes,
      start: async ({ body, res }) => ({ status: 201, body: await dsar.startFulfillment(prisma, actor(res), body.requestId) }),
      complete: async ({ params, body, res }) => ({
        status: 200,
        body: await dsar.closeItem(prisma, actor(res), params.id, 'complete', body),
      }),
      mark_not_found: async ({ params, body, res }) => ({
        status: 200,
        body: await dsar.closeItem(prisma, actor(res), params.id, 'mark_not_found', body),
      }),
      withhold: async ({ params, body, res }) => ({
        status: 200,
        body: await dsar.closeItem(prisma, actor(res), params.id, 'withhold', body),
      }),
    },
    export: serveResource(db, dsarExports, dsar.exportStore),
    redact: {
      ...redactionRoutes,
      // The new packet version and the redaction record are written in one transaction.
      create: async ({ body, res }) => ({ status: 201, body: await dsar.createRedaction(prisma, actor(res), body) }),
    },
    sla: async ({ query, res }) => ({ status: 200, body: await dsar.sla(prisma, tenantOf(res).tenantId, query) }),
  });
}
