import { contract, riskRegisterRisks, riskReviews, riskSignOffs, riskTreatments } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as register from './service.ts';

export function riskRegisterHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const reviews = serveResource(db, riskReviews, register.reviewStore);
  // A sign-off is made with the owner's own key: the kit finds the person it acts for.
  const signOffs = serveResource(db, riskSignOffs, register.signOffStore);
  return initServer().router(contract.risk_register, {
    risks: serveResource(db, riskRegisterRisks, register.riskStore),
    // Implementing recomputes the risk's residual in the same transaction (the store's implement step).
    treatments: serveResource(db, riskTreatments, register.treatmentStore),
    scores: {
      list: async ({ query, res }) => ({ status: 200, body: await register.listScores(prisma, tenantOf(res).tenantId, query) }),
      history: async ({ params, res }) => ({
        status: 200,
        body: await register.scoreHistory(prisma, tenantOf(res).tenantId, params.riskId),
      }),
    },
    heatmap: async ({ query, res }) => ({ status: 200, body: await register.heatmap(prisma, tenantOf(res).tenantId, query) }),
    reviews: {
      list: reviews.list,
      create: reviews.create,
      due: async ({ query, res }) => ({ status: 200, body: await register.reviewsDue(prisma, tenantOf(res).tenantId, query) }),
    },
    signOff: {
      list: signOffs.list,
      create: signOffs.create,
    },
  });
}
