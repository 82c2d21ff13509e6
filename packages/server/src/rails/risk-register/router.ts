import { contract, riskRegisterRisks, riskReviews, riskTreatments } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { personActor, type RailDeps, tenantOf } from '../deps.ts';
import * as register from './service.ts';

export function riskRegisterHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const reviews = serveResource(db, riskReviews, register.reviewStore);
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
      list: async ({ query, res }) => ({ status: 200, body: await register.listSignOffs(prisma, tenantOf(res).tenantId, query) }),
      create: async ({ body, res }) => ({ status: 201, body: await register.signOff(prisma, personActor(res), body) }),
    },
  });
}
