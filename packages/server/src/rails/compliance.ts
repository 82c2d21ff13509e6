import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import * as compliance from '../services/compliance.ts';
import { actor, type RailDeps, tenantOf } from './deps.ts';

export function complianceHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.compliance, {
    listFrameworks: async ({ query, res }) => ({
      status: 200,
      body: await compliance.listTenantFrameworks(prisma, tenantOf(res).tenantId, query),
    }),
    listAssessments: async ({ query, res }) => ({
      status: 200,
      body: await compliance.listAssessments(prisma, tenantOf(res).tenantId, query),
    }),
    createAssessment: async ({ body, res }) => ({ status: 201, body: await compliance.createAssessment(prisma, actor(res), body) }),
    getAssessment: async ({ params, res }) => ({
      status: 200,
      body: await compliance.getAssessment(prisma, tenantOf(res).tenantId, params.id),
    }),
    listObligations: async ({ query, res }) => ({
      status: 200,
      body: await compliance.listObligations(prisma, tenantOf(res).tenantId, query),
    }),
    createEvidence: async ({ body, res }) => ({ status: 201, body: await compliance.createEvidence(prisma, actor(res), body) }),
    listEvidence: async ({ query, res }) => ({ status: 200, body: await compliance.listEvidence(prisma, tenantOf(res).tenantId, query) }),
    getEvidence: async ({ params, res }) => ({
      status: 200,
      body: await compliance.getEvidence(prisma, tenantOf(res).tenantId, params.id),
    }),
    createAttestation: async ({ body, res }) => ({ status: 201, body: await compliance.createAttestation(prisma, actor(res), body) }),
    listAttestations: async ({ query, res }) => ({
      status: 200,
      body: await compliance.listAttestations(prisma, tenantOf(res).tenantId, query),
    }),
    getAttestation: async ({ params, res }) => ({
      status: 200,
      body: await compliance.getAttestation(prisma, tenantOf(res).tenantId, params.id),
    }),
  });
}
