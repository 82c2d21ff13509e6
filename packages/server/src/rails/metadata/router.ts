import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as metadata from './service.ts';

export function metadataHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.metadata, {
    label: {
      list: async ({ query, res }) => ({ status: 200, body: await metadata.listLabels(prisma, tenantOf(res).tenantId, query) }),
      create: async ({ body, res }) => {
        const result = await metadata.addLabel(prisma, actor(res), body);
        return result.created ? { status: 201, body: result.label } : { status: 200, body: result.label };
      },
      remove: async ({ params, res }) => ({ status: 200, body: await metadata.removeLabel(prisma, actor(res), params.id) }),
      unlabel: async ({ body, res }) => ({ status: 200, body: await metadata.unlabel(prisma, actor(res), body) }),
    },
    facets: async ({ query, res }) => ({ status: 200, body: await metadata.facets(prisma, tenantOf(res).tenantId, query) }),
    search: async ({ query, res }) => ({ status: 200, body: await metadata.searchLabels(prisma, tenantOf(res).tenantId, query) }),
    items: async ({ query, res }) => ({ status: 200, body: await metadata.items(prisma, tenantOf(res).tenantId, query) }),
  });
}
