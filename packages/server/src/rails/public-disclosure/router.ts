import { art50Documents, art53GpaiDocuments, contract, modelCards, systemProfiles, transparencyNotices } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { serveSetting } from '../../setting-kit.ts';
import type { RailDeps } from '../deps.ts';
import * as pd from './service.ts';

export function publicDisclosureHandlers({ db }: RailDeps) {
  // The document kinds are variants of one table: each kit resource serves the rows of its kind.
  const documents = (served: ReturnType<typeof serveResource>) => ({ list: served.list, generate: served.create, get: served.get });
  const profiles = serveSetting(db, systemProfiles, pd.profileStore);
  return initServer().router(contract.public_disclosure, {
    transparency: serveResource(db, transparencyNotices, pd.noticeStore),
    art50: documents(serveResource(db, art50Documents, pd.documentStore('art-50'))),
    art53Gpai: documents(serveResource(db, art53GpaiDocuments, pd.documentStore('art-53-gpai'))),
    modelCard: documents(serveResource(db, modelCards, pd.documentStore('model-card'))),
    listSystems: profiles.list,
    getSystem: profiles.get,
    putSystem: profiles.put,
  });
}
