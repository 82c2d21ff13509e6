import { certifications, contract, ndaDocuments, ndaRequests, subProcessors } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as trust from './service.ts';

export function trustHandlers({ db }: RailDeps) {
  const { prisma } = db;
  return initServer().router(contract.trust, {
    posture: async ({ res }) => ({ status: 200, body: await trust.posture(prisma, tenantOf(res).tenantId) }),
    certifications: serveResource(db, certifications, trust.certificationStore),
    subProcessors: serveResource(db, subProcessors, trust.subProcessorStore),
    status: async ({ res }) => ({ status: 200, body: await trust.status(prisma, tenantOf(res).tenantId) }),
    publish: async ({ body, res }) => ({ status: 200, body: await trust.publish(prisma, actor(res), body.slug) }),
    unpublish: async ({ res }) => ({ status: 200, body: await trust.unpublish(prisma, actor(res)) }),
    publicPage: async ({ params }) => ({ status: 200, body: await trust.publicPage(prisma, params.slug) }),
    questionnaires: async ({ body, res }) => ({
      status: 200,
      body: await trust.answerQuestionnaire(prisma, tenantOf(res).tenantId, body),
    }),
    ndaRequests: {
      ...serveResource(db, ndaRequests, trust.ndaRequestStore),
      accept: async ({ params, res }) => ({ status: 200, body: await trust.acceptNdaRequest(prisma, actor(res), params.id) }),
    },
    ndaDocuments: serveResource(db, ndaDocuments, trust.ndaDocumentStore),
    ndaDocumentContent: async ({ params, query }) => ({
      status: 200,
      body: await trust.ndaDocumentContent(prisma, params.id, query.ndaRequestId, query.accessToken),
    }),
  });
}
