import { contract, legalHoldCustodians, legalHoldExports, legalHoldPreservation, legalHolds, type Resource } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as holds from './service.ts';

/** The kit's list and get of a resource whose writes are served by hand (they write more in their transaction). */
export function readsOf<R extends Resource>(r: R): R {
  return { ...r, spec: { ...r.spec, create: undefined, transitions: undefined } } as R;
}

export function litigationHoldHandlers({ db }: RailDeps) {
  const { prisma } = db;
  return initServer().router(contract.litigation_hold, {
    holds: {
      ...serveResource(db, readsOf(legalHolds), holds.holdStore),
      // Writes that add a preservation-log entry in the same transaction are served here.
      create: async ({ body, res }) => ({ status: 201, body: await holds.createHold(prisma, actor(res), body) }),
      release: async ({ params, body, res }) => ({
        status: 200,
        body: await holds.releaseHold(prisma, actor(res), params.id, body?.reason),
      }),
      records: async ({ params, res }) => ({ status: 200, body: await holds.heldRecords(prisma, tenantOf(res).tenantId, params.id) }),
    },
    custodians: {
      ...serveResource(db, readsOf(legalHoldCustodians), holds.custodianStore),
      create: async ({ body, res }) => ({ status: 201, body: await holds.addCustodian(prisma, actor(res), body) }),
      acknowledge: async ({ params, body, res }) => ({
        status: 200,
        body: await holds.acknowledgeCustodian(prisma, actor(res), params.id, body?.reason),
      }),
    },
    preservation: serveResource(db, legalHoldPreservation, holds.preservationStore),
    ediscovery: {
      ...serveResource(db, readsOf(legalHoldExports), holds.exportStore),
      create: async ({ body, res }) => ({ status: 201, body: await holds.createExport(prisma, actor(res), body) }),
    },
  });
}
