import { contract, insuranceClaims, insurancePolicies, insuranceQuotes } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as insurance from './service.ts';

export function insuranceHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const { record_offer, ...quotes } = serveResource(db, insuranceQuotes, insurance.quoteStore);
  return initServer().router(contract.insurance, {
    policies: {
      ...serveResource(db, insurancePolicies, insurance.policyStore),
      standing: async ({ params, query, res }) => ({
        status: 200,
        body: await insurance.standing(prisma, tenantOf(res).tenantId, params.id, query.at),
      }),
    },
    claims: {
      ...serveResource(db, insuranceClaims, insurance.claimStore),
      // Approval caps the amount by the policy's aggregate limit left, read in its transaction.
      approve: async ({ params, body, res }) => ({
        status: 200,
        body: await insurance.approveClaim(prisma, actor(res), params.id, body?.reason),
      }),
    },
    coverage: async ({ query, res }) => ({ status: 200, body: await insurance.coverage(prisma, tenantOf(res).tenantId, query.at) }),
    quotes: {
      ...quotes,
      recordOffer: record_offer,
      comparison: async ({ params, res }) => ({ status: 200, body: await insurance.compare(prisma, tenantOf(res).tenantId, params.id) }),
      accept: async ({ params, body, res }) => ({
        status: 201,
        body: await insurance.acceptOffer(prisma, actor(res), params.id, body),
      }),
    },
  });
}
