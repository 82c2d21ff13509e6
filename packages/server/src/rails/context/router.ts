import { contract, documents } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as context from './service.ts';

export function contextHandlers({ db }: RailDeps) {
  const { prisma } = db;
  return initServer().router(contract.context, {
    upload: async ({ body, res }) => ({ status: 201, body: await context.uploadDocument(prisma, actor(res), body) }),
    documents: serveResource(db, documents, context.documentStore),
    documentText: async ({ params, res }) => ({ status: 200, body: await context.documentText(prisma, tenantOf(res).tenantId, params.id) }),
    classify: async ({ body, res }) => ({ status: 200, body: await context.classify(prisma, actor(res), body) }),
    clauseExtract: async ({ body, res }) => ({ status: 200, body: await context.clauseExtract(prisma, tenantOf(res).tenantId, body) }),
    map: async ({ body, res }) => ({ status: 200, body: await context.mapDocument(prisma, actor(res), body) }),
    gapAnalysis: async ({ body, res }) => ({
      status: 200,
      body: await context.gapAnalysis(prisma, tenantOf(res).tenantId, body.framework),
    }),
    recommendations: async ({ query, res }) => ({
      status: 200,
      body: await context.recommendations(prisma, tenantOf(res).tenantId, query),
    }),
  });
}
