import { art50Documents, art53GpaiDocuments, contract, modelCards, transparencyNotices } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as pd from './service.ts';

export function publicDisclosureHandlers({ db }: RailDeps) {
  const { prisma } = db;
  // The document kinds are variants of one table: each kit resource serves the rows of its kind.
  const documents = (served: ReturnType<typeof serveResource>) => ({ list: served.list, generate: served.create, get: served.get });
  return initServer().router(contract.public_disclosure, {
    transparency: serveResource(db, transparencyNotices, pd.noticeStore),
    art50: documents(serveResource(db, art50Documents, pd.documentStore('art-50'))),
    art53Gpai: documents(serveResource(db, art53GpaiDocuments, pd.documentStore('art-53-gpai'))),
    modelCard: documents(serveResource(db, modelCards, pd.documentStore('model-card'))),
    listSystems: async ({ query, res }) => ({ status: 200, body: await pd.listProfiles(prisma, tenantOf(res).tenantId, query) }),
    getSystem: async ({ params, res }) => ({ status: 200, body: await pd.getProfile(prisma, tenantOf(res).tenantId, params.systemId) }),
    putSystem: async ({ params, body, res }) => ({ status: 200, body: await pd.putProfile(prisma, actor(res), params.systemId, body) }),
  });
}
