import { contract, transparencyNotices } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as pd from './service.ts';

export function publicDisclosureHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const documents = (kind: 'art-50' | 'art-53-gpai' | 'model-card') => ({
    list: async ({ query, res }: { query: { limit: number; cursor?: string; systemId?: string }; res: Response }) => ({
      status: 200 as const,
      body: await pd.listDocuments(prisma, tenantOf(res).tenantId, kind, query),
    }),
    generate: async ({ body, res }: { body: { systemId: string }; res: Response }) => ({
      status: 201 as const,
      body: await pd.generateDocument(prisma, actor(res), kind, body.systemId),
    }),
    get: async ({ params, res }: { params: { id: string }; res: Response }) => ({
      status: 200 as const,
      body: await pd.getDocument(prisma, tenantOf(res).tenantId, kind, params.id),
    }),
  });
  return initServer().router(contract.public_disclosure, {
    transparency: serveResource(db, transparencyNotices, pd.noticeStore),
    art50: documents('art-50'),
    art53Gpai: documents('art-53-gpai'),
    modelCard: documents('model-card'),
    listSystems: async ({ query, res }) => ({ status: 200, body: await pd.listProfiles(prisma, tenantOf(res).tenantId, query) }),
    getSystem: async ({ params, res }) => ({ status: 200, body: await pd.getProfile(prisma, tenantOf(res).tenantId, params.systemId) }),
    putSystem: async ({ params, body, res }) => ({ status: 200, body: await pd.putProfile(prisma, actor(res), params.systemId, body) }),
  });
}
