import { contract, dsarExports, dsarRedactions, dsarRequests, fulfillmentItems } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as dsar from './service.ts';

export function dsarHandlers({ db }: RailDeps) {
  const { prisma } = db;
  return initServer().router(contract.dsar, {
    requests: serveResource(db, dsarRequests, dsar.requestStore),
    verify: async ({ body, res }) => ({ status: 200, body: await dsar.verifyRequest(prisma, actor(res), body) }),
    // Not a sub-resource of the rail in the catalogue: the kit cannot declare it.
    stores: {
      list: async ({ query, res }) => ({ status: 200, body: await dsar.listStores(prisma, tenantOf(res).tenantId, query) }),
      create: async ({ body, res }) => ({ status: 201, body: await dsar.createStore(prisma, actor(res), body) }),
      get: async ({ params, res }) => ({ status: 200, body: await dsar.getStore(prisma, tenantOf(res).tenantId, params.id) }),
    },
    fulfillment: {
      ...serveResource(db, fulfillmentItems, dsar.itemStore),
      start: async ({ body, res }) => ({ status: 201, body: await dsar.startFulfillment(prisma, actor(res), body.requestId) }),
      // Closing stores who closed the item (a step's `set` is not told who writes) and, for a
      // refused erasure, logs the refusal after the rollback (no kit hook runs then): written out.
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
    redact: serveResource(db, dsarRedactions, dsar.redactionStore),
    sla: async ({ query, res }) => ({ status: 200, body: await dsar.sla(prisma, tenantOf(res).tenantId, query) }),
  });
}
