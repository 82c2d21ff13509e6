import { contract, procurementAwards, procurementBids, procurementOnboardings, procurementRfps } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as procurement from './service.ts';

export function procurementHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const bids = serveResource(db, procurementBids, procurement.bidStore);
  return initServer().router(contract.procurement, {
    rfp: {
      // List, get, create and the transitions (evaluate refuses an RFP without bids) come from the kit.
      ...serveResource(db, procurementRfps, procurement.rfpStore),
      updateWeights: async ({ params, body, res }) => ({
        status: 200,
        body: await procurement.updateWeights(prisma, actor(res), params.id, body),
      }),
      // Bids are a collection under the RFP (`/rfp/:id/bids`), served by the kit.
      createBid: bids.create,
      listBids: bids.list,
      award: async ({ params, body, res }) => ({ status: 201, body: await procurement.award(prisma, actor(res), params.id, body) }),
    },
    scoring: async ({ params, res }) => ({ status: 200, body: await procurement.scoring(prisma, tenantOf(res).tenantId, params.rfpId) }),
    awards: serveResource(db, procurementAwards, procurement.awardStore).list,
    onboarding: serveResource(db, procurementOnboardings, procurement.onboardingStore),
  });
}
