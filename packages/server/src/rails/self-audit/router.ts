import { contract, selfAuditEvidenceLinks, selfAuditFindings, selfAuditRemediations } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as selfAudit from './service.ts';

export function selfAuditHandlers({ db }: RailDeps) {
  const { prisma } = db;
  // Findings, remediations (verify and reopen move the finding too, in the same transaction) and
  // evidence links come from the kit; the posture and the drift are computed.
  return initServer().router(contract.self_audit, {
    posture: async ({ res }) => ({ status: 200, body: await selfAudit.posture(prisma, tenantOf(res).tenantId) }),
    drift: async ({ query, res }) => ({ status: 200, body: await selfAudit.drift(prisma, tenantOf(res).tenantId, query) }),
    findings: serveResource(db, selfAuditFindings, selfAudit.findingStore),
    remediations: serveResource(db, selfAuditRemediations, selfAudit.remediationStore),
    evidence: serveResource(db, selfAuditEvidenceLinks, selfAudit.evidenceLinkStore),
  });
}
