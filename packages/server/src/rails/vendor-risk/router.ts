import { contract, vendorRiskAssessments, vendorRiskContracts, vendorRiskMonitoring, vendorRiskVendors } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as vendors from './service.ts';

export function vendorRiskHandlers({ db }: RailDeps) {
  const { prisma } = db;
  // Every list, get, create and transition comes from the kit; the stores recompute the vendor's
  // risk score in the transaction of the change that moves it.
  return initServer().router(contract.vendor_risk, {
    vendors: serveResource(db, vendorRiskVendors, vendors.vendorStore),
    assessments: serveResource(db, vendorRiskAssessments, vendors.assessmentStore),
    contracts: {
      ...serveResource(db, vendorRiskContracts, vendors.contractStore),
      state: async ({ params, query, res }) => ({
        status: 200,
        body: await vendors.contractState(prisma, tenantOf(res).tenantId, params.id, query.at),
      }),
    },
    monitoring: serveResource(db, vendorRiskMonitoring, vendors.monitoringStore),
    scorecards: {
      list: async ({ query, res }) => ({ status: 200, body: await vendors.listScorecards(prisma, tenantOf(res).tenantId, query) }),
      get: async ({ params, query, res }) => ({
        status: 200,
        body: await vendors.scorecard(prisma, tenantOf(res).tenantId, params.vendorId, query.at),
      }),
    },
  });
}
