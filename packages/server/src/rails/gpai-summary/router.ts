import { contract, gpaiCopyrightPolicies, gpaiDataSources, gpaiEnergyDisclosures, gpaiSummaries } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as gpai from './service.ts';

export function gpaiSummaryHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const { update, publish, ...summaries } = serveResource(db, gpaiSummaries, gpai.summaryStore);
  return initServer().router(contract.gpai_summary, {
    template: async () => ({ status: 200, body: gpai.renderTemplate() }),
    summaries,
    updateSummary: update,
    publishSummary: publish,
    document: async ({ params, res }) => ({ status: 200, body: await gpai.document(prisma, tenantOf(res).tenantId, params.id) }),
    versions: async ({ params, query, res }) => ({
      status: 200,
      body: await gpai.versions(prisma, tenantOf(res).tenantId, params.id, query),
    }),
    dataSources: serveResource(db, gpaiDataSources, gpai.dataSourceStore),
    copyrightPolicies: serveResource(db, gpaiCopyrightPolicies, gpai.copyrightPolicyStore),
    energyDisclosures: serveResource(db, gpaiEnergyDisclosures, gpai.energyStore),
  });
}
