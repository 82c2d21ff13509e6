import { contract, metadataLabels } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as metadata from './service.ts';

export function metadataHandlers({ db }: RailDeps) {
  const { prisma } = db;
  // The labels' list is the kit's; adding (201 or 200), the DELETE and the bulk unlabel stay hand-written.
  const labels = serveResource(db, metadataLabels, metadata.labelStore);
  return initServer().router(contract.metadata, {
    label: {
      list: labels.list,
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
