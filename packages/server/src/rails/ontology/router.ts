import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as ontology from './service.ts';

export function ontologyHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.ontology, {
    authorities: async ({ query }) => ({ status: 200, body: await ontology.listDictionaryLayer(prisma, 'authority', query) }),
    obligations: async ({ query }) => ({ status: 200, body: await ontology.listDictionaryLayer(prisma, 'obligation', query) }),
    controls: async ({ query }) => ({ status: 200, body: await ontology.listDictionaryLayer(prisma, 'control', query) }),
    evidence: async ({ query, res }) => ({
      status: 200,
      body: await ontology.listTenantLayer(prisma, tenantOf(res).tenantId, 'evidence', query),
    }),
    architecture: async ({ query, res }) => ({
      status: 200,
      body: await ontology.listTenantLayer(prisma, tenantOf(res).tenantId, 'architecture', query),
    }),
    policies: async ({ query, res }) => ({
      status: 200,
      body: await ontology.listTenantLayer(prisma, tenantOf(res).tenantId, 'policy', query),
    }),
    resolve: async ({ query, res }) => ({ status: 200, body: await ontology.resolve(prisma, tenantOf(res).tenantId, query.node) }),
    resolvePost: async ({ body, res }) => ({ status: 200, body: await ontology.resolve(prisma, tenantOf(res).tenantId, body.node) }),
  });
}
