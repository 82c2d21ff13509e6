import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { actor, type RailDeps } from '../deps.ts';
import * as taxonomy from './service.ts';

export function taxonomyHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.taxonomy, {
    frameworks: async ({ query }) => ({ status: 200, body: await taxonomy.listFrameworks(prisma, query) }),
    controls: async ({ query }) => ({ status: 200, body: await taxonomy.listControls(prisma, query) }),
    clauses: async ({ query }) => ({ status: 200, body: await taxonomy.listClauses(prisma, query) }),
    evidenceTypes: async ({ query }) => ({ status: 200, body: taxonomy.listEvidenceTypes(query) }),
    jurisdictions: async ({ query }) => ({ status: 200, body: taxonomy.listJurisdictions(query) }),
    regulators: async ({ query }) => ({ status: 200, body: taxonomy.listRegulators(query) }),
    riskClasses: async ({ query }) => ({ status: 200, body: await taxonomy.listRiskClasses(prisma, query) }),
    roles: async ({ query }) => ({ status: 200, body: taxonomy.listRoles(query) }),
    bundleHash: async ({ res }) => ({ status: 200, body: await taxonomy.getBundleHash(prisma, actor(res)) }),
    repin: async ({ body, res }) => ({ status: 200, body: await taxonomy.repin(prisma, actor(res), body) }),
  });
}
