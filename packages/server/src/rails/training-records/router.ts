import { contract, trainingModules, trainingRecords } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as training from './service.ts';

export function trainingRecordsHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const records = serveResource(db, trainingRecords, training.recordStore);
  return initServer().router(contract.training_records, {
    modules: serveResource(db, trainingModules, training.moduleStore),
    records: {
      list: records.list,
      create: records.create,
    },
    coverage: async ({ query, res }) => ({ status: 200, body: await training.coverage(prisma, tenantOf(res).tenantId, query) }),
    certificates: {
      list: async ({ query, res }) => ({ status: 200, body: await training.listCertificates(prisma, tenantOf(res).tenantId, query) }),
      verify: async ({ query }) => ({ status: 200, body: await training.verifyCertificate(prisma, query.code) }),
    },
  });
}
