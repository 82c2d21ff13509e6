import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import type { RailDeps } from '../deps.ts';
import * as glossary from './service.ts';

export function glossaryHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.glossary, {
    list: async ({ query }) => ({ status: 200, body: await glossary.listTerms(prisma, query) }),
    get: async ({ params }) => ({ status: 200, body: await glossary.getTerm(prisma, params.id) }),
  });
}
