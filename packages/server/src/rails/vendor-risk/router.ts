import { contract, vendorRiskAssessments, vendorRiskContracts, vendorRiskMonitoring, vendorRiskVendors } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as vendors from './service.ts';

export function vendorRiskHandlers({ db }: RailDeps) {
  const { prisma } = db;
  // Lists and gets come from the kit; every write is served by the service, which recomputes the
  // vendor's risk score in the same transaction.
  const vendorRoutes = serveResource(db, vendorRiskVendors, vendors.vendorStore);
  const assessmentRoutes = serveResource(db, vendorRiskAssessments, vendors.assessmentStore);
  const contractRoutes = serveResource(db, vendorRiskContracts, vendors.contractStore);
  const monitoringRoutes = serveResource(db, vendorRiskMonitoring, vendors.monitoringStore);
  return initServer().router(contract.vendor_risk, {
    vendors: {
      ...vendorRoutes,
      create: async ({ body, res }) => ({ status: 201, body: await vendors.createVendor(prisma, actor(res), body) }),
      offboard: async ({ params, body, res }) => ({
        status: 200,
        body: await vendors.offboardVendor(prisma, actor(res), params.id, body?.reason),
      }),
    },
    assessments: {
      ...assessmentRoutes,
      create: async ({ body, res }) => ({ status: 201, body: await vendors.createAssessment(prisma, actor(res), body) }),
      complete: async ({ params, body, res }) => ({
        status: 200,
        body: await vendors.completeAssessment(prisma, actor(res), params.id, body?.reason),
      }),
    },
    contracts: {
      ...contractRoutes,
      create: async ({ body, res }) => ({ status: 201, body: await vendors.createContract(prisma, actor(res), body) }),
      renew: async ({ params, body, res }) => ({
        status: 200,
        body: await vendors.renewContract(prisma, actor(res), params.id, body?.reason),
      }),
      terminate: async ({ params, body, res }) => ({
        status: 200,
        body: await vendors.terminateContract(prisma, actor(res), params.id, body?.reason),
      }),
      state: async ({ params, query, res }) => ({
        status: 200,
        body: await vendors.contractState(prisma, tenantOf(res).tenantId, params.id, query.at),
      }),
    },
    monitoring: {
      ...monitoringRoutes,
      create: async ({ body, res }) => ({ status: 201, body: await vendors.createMonitoringEvent(prisma, actor(res), body) }),
    },
    scorecards: {
      list: async ({ query, res }) => ({ status: 200, body: await vendors.listScorecards(prisma, tenantOf(res).tenantId, query) }),
      get: async ({ params, query, res }) => ({
        status: 200,
        body: await vendors.scorecard(prisma, tenantOf(res).tenantId, params.vendorId, query.at),
      }),
    },
  });
}
