import { contract, dsarExports, dsarRedactions, dsarRequests, dsarStores, fulfillmentItems } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as dsar from './service.ts';

export function dsarHandlers({ db }: RailDeps) {
  const { prisma } = db;
  return initServer().router(contract.dsar, {
    requests: serveResource(db, dsarRequests, dsar.requestStore),
    verify: async ({ body, res }) => ({ status: 200, body: await dsar.verifyRequest(prisma, actor(res), body) }),
    stores: serveResource(db, dsarStores, dsar.dataStoreStore),
    fulfillment: {
      ...serveResource(db, fulfillmentItems, dsar.itemStore),
      start: async ({ body, res }) => ({ status: 201, body: await dsar.startFulfillment(prisma, actor(res), body.requestId) }),
      // A refused erasure is written to the preservation log after its transaction rolled back,
      // where no kit hook runs: the completion is written out (completeItem).
      complete: async ({ params, body, res }) => ({ status: 200, body: await dsar.completeItem(prisma, actor(res), params.id, body) }),
    },
    export: serveResource(db, dsarExports, dsar.exportStore),
    redact: serveResource(db, dsarRedactions, dsar.redactionStore),
    sla: async ({ query, res }) => ({ status: 200, body: await dsar.sla(prisma, tenantOf(res).tenantId, query) }),
  });
}
