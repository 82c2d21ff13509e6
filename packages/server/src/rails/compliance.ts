import { assessments, attestations, contract, evidence, obligations } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../kit.ts';
import * as compliance from '../services/compliance.ts';
import { type RailDeps, tenantOf } from './deps.ts';

export function complianceHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.compliance, {
    frameworks: {
      list: async ({ query, res }) => ({
        status: 200,
        body: await compliance.listTenantFrameworks(prisma, tenantOf(res).tenantId, query),
      }),
    },
    assessments: serveResource(prisma, assessments, compliance.assessmentStore),
    obligations: serveResource(prisma, obligations, compliance.obligationStore),
    evidence: serveResource(prisma, evidence, compliance.evidenceStore),
    attestations: serveResource(prisma, attestations, compliance.attestationStore),
  });
}
