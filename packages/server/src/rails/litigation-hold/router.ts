import { contract, legalHoldCustodians, legalHoldExports, legalHoldPreservation, legalHolds } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as holds from './service.ts';

export function litigationHoldHandlers({ db }: RailDeps) {
  const { prisma } = db;
  // Lists, gets, creates, the acknowledgement and the release come from the kit; the stores write
  // the preservation-log entry in the transaction of each change.
  return initServer().router(contract.litigation_hold, {
    holds: {
      ...serveResource(db, legalHolds, holds.holdStore),
      records: async ({ params, res }) => ({ status: 200, body: await holds.heldRecords(prisma, tenantOf(res).tenantId, params.id) }),
    },
    custodians: serveResource(db, legalHoldCustodians, holds.custodianStore),
    preservation: serveResource(db, legalHoldPreservation, holds.preservationStore),
    ediscovery: serveResource(db, legalHoldExports, holds.exportStore),
  });
}
