import { contract, selfAuditEvidenceLinks, selfAuditFindings, selfAuditRemediations } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as selfAudit from './service.ts';

export function selfAuditHandlers({ db }: RailDeps) {
  const { prisma } = db;
  // start and resolve are the kit's; verify and reopen change the finding too, in the same transaction.
  const remediationRoutes = serveResource(db, selfAuditRemediations, selfAudit.remediationStore);
  return initServer().router(contract.self_audit, {
    posture: async ({ res }) => ({ status: 200, body: await selfAudit.posture(prisma, tenantOf(res).tenantId) }),
    drift: async ({ query, res }) => ({ status: 200, body: await selfAudit.drift(prisma, tenantOf(res).tenantId, query) }),
    findings: serveResource(db, selfAuditFindings, selfAudit.findingStore),
    remediations: {
      ...remediationRoutes,
      verify: async ({ params, body, res }) => ({
        status: 200,
        body: await selfAudit.transitionRemediation(prisma, actor(res), params.id, 'verify', body?.reason),
      }),
      reopen: async ({ params, body, res }) => ({
        status: 200,
        body: await selfAudit.transitionRemediation(prisma, actor(res), params.id, 'reopen', body?.reason),
      }),
    },
    evidence: serveResource(db, selfAuditEvidenceLinks, selfAudit.evidenceLinkStore),
  });
}
