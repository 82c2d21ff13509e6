import { contract, specialistCertifications, specialistConsultants, specialistFees, specialistFirms } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as specialists from './service.ts';

/**
 * The specialists rail. The tier gate comes from the catalogue (the specialist tier only); nothing
 * is re-checked here.
 */
export function specialistsHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const fees = serveResource(db, specialistFees, specialists.feeStore);
  return initServer().router(contract.specialists, {
    firms: serveResource(db, specialistFirms, specialists.firmStore),
    consultants: serveResource(db, specialistConsultants, specialists.consultantStore),
    certifications: serveResource(db, specialistCertifications, specialists.certificationStore),
    clientEngagements: async ({ query, res }) => ({
      status: 200,
      body: await specialists.clientEngagements(prisma, tenantOf(res).tenantId, query),
    }),
    fees: {
      list: fees.list,
      create: fees.create,
    },
    billingShare: async ({ query, res }) => ({
      status: 200,
      body: await specialists.billingShare(prisma, tenantOf(res).tenantId, query.period),
    }),
  });
}
