import { assessments, attestations, contract, evidence, obligations } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as compliance from './service.ts';

export function complianceHandlers({ db }: RailDeps) {
  return initServer().router(contract.compliance, {
    frameworks: {
      list: async ({ query, res }) => ({
        status: 200,
        body: await compliance.listTenantFrameworks(db.sql, tenantOf(res).tenantId, query),
      }),
    },
    assessments: serveResource(db, assessments, compliance.assessmentStore),
    obligations: serveResource(db, obligations, compliance.obligationStore),
    evidence: serveResource(db, evidence, compliance.evidenceStore),
    attestations: serveResource(db, attestations, compliance.attestationStore),
  });
}
