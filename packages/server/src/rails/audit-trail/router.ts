import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { listPublicKeys } from '../../platform/ledger/signing.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as trail from './service.ts';

export function auditTrailHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.audit_trail, {
    events: async ({ query, res }) => ({ status: 200, body: await trail.listAuditEvents(prisma, tenantOf(res).tenantId, query) }),
    query: async ({ body, res }) => ({ status: 200, body: await trail.queryAuditEvents(prisma, tenantOf(res).tenantId, body) }),
    export: async ({ body, res }) => ({ status: 200, body: await trail.exportAuditRange(prisma, tenantOf(res).tenantId, body) }),
    replay: async ({ body, res }) => ({ status: 200, body: await trail.replayAuditRange(prisma, tenantOf(res).tenantId, body) }),
    keys: async () => ({ status: 200, body: { data: await listPublicKeys(prisma) } }),
  });
}
